import { loadWorkerEnv } from '@app/config';
import { createAddressPolicy, type HostResolver } from '@app/net-guard';
import { startRendering, type Rendering, type RenderingEnv } from '../src';

/**
 * No name is ever resolved in these tests: saved pages name real hosts, and the machine's DNS
 * server is off loopback. Targets are literal addresses or *.localhost, which need no DNS.
 */
const noDns: HostResolver = async (host) => {
  throw Object.assign(new Error(`no DNS in tests (${host})`), { code: 'ENOTFOUND' });
};

/** Rendering as the worker runs it, with only 127.0.0.1 open (every other loopback form refused). */
export function startTestRendering(env: Partial<RenderingEnv> = {}): Promise<Rendering> {
  return startRendering({
    env: { ...loadWorkerEnv(), ...env },
    policy: createAddressPolicy({ mode: 'allowlist', allowCidrs: ['127.0.0.1/32'] }),
    resolver: noDns,
  });
}
