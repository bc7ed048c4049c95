// `npm run bench:fetch`: what guarded fetch costs its caller (the http engine's worker) a fetch,
// with agents of its own per fetch (no connection reused) against the http engine's keep-alive
// agents, over http and https to loopback servers in another process (so only the client's CPU is
// counted), one 9 KiB answer a fetch, 8 in flight. The two take turns, --rounds times each.
// Figures in docs/benchmarks.md, "Guarded fetch".
// Options: --fetches N (2000 a turn), --rounds N (3).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createAddressPolicy, createGuardedAgents, guardedFetch, type GuardedAgents } from '@app/net-guard';
import { loopbackCertificate } from '../test/fixtures/loopback-cert';

const BODY = 'x'.repeat(9 * 1024);
const IN_FLIGHT = 8;

interface Ports {
  http: number;
  https: number;
  cert: string;
}

async function serve(): Promise<void> {
  const cert = loopbackCertificate();
  const plain = http.createServer((_req, res) => res.end(BODY)).listen(0, '127.0.0.1');
  const secure = https.createServer(cert, (_req, res) => res.end(BODY)).listen(0, '127.0.0.1');
  await Promise.all([once(plain, 'listening'), once(secure, 'listening')]);
  const port = (server: http.Server) => (server.address() as AddressInfo).port;
  process.send!({ http: port(plain), https: port(secure), cert: String(cert.cert) } satisfies Ports);
  process.on('disconnect', () => process.exit(0));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { fetches: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '3' } },
  });
  const fetches = Number(values.fetches);
  const server = fork(__filename, ['--serve'], { stdio: 'inherit' });
  const [ports] = (await once(server, 'message')) as [Ports];
  const policy = createAddressPolicy({ mode: 'allowlist', allowCidrs: ['127.0.0.1/32'] });
  /** CPU ms of this process a fetch, and fetches a second. */
  const turn = async (url: string, agents: GuardedAgents | undefined, count: number) => {
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    let left = count;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (left-- > 0) await guardedFetch(url, { policy, ca: ports.cert, agents });
      }),
    );
    const used = process.cpuUsage(cpu);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { ms: (used.user + used.system) / 1000 / count, rate: count / seconds };
  };
  console.log(`bench:fetch, ${fetches} fetches a turn, ${IN_FLIGHT} in flight`);
  for (const scheme of ['http', 'https'] as const) {
    const url = `${scheme}://127.0.0.1:${ports[scheme]}/`;
    const kept = createGuardedAgents({ policy, keepAlive: true, ca: ports.cert });
    // Warm-up of both paths: JIT, and the kept-alive connections opened.
    await turn(url, undefined, 200);
    await turn(url, kept, 200);
    for (let round = 1; round <= Number(values.rounds); round++) {
      for (const [name, agents] of [
        ['agents per fetch', undefined],
        ['kept-alive agents', kept],
      ] as const) {
        const { ms, rate } = await turn(url, agents, fetches);
        console.log(
          `${scheme} ${name}, round ${round}: ${ms.toFixed(3)} ms CPU a fetch, ${rate.toFixed(0)}/s`,
        );
      }
    }
    kept.http.destroy();
    kept.https.destroy();
  }
  server.disconnect();
}

(process.argv.includes('--serve') ? serve() : main()).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
