import type { WorkerEnv } from '@app/config';
import { startEgressProxy, type AddressPolicy, type EgressProxy, type HostResolver } from '@app/net-guard';
import { resolveChromiumPath } from './engines/chromium';
import { HttpEngine } from './engines/http.engine';
import { PlaywrightEngine } from './engines/playwright.engine';
import { PuppeteerEngine } from './engines/puppeteer.engine';
import { poolLimits, type PoolEnv } from './pool-config';
import { RefusalLog } from './refusal-log';
import { RenderService } from './render.service';

export type RenderingEnv = PoolEnv &
  Pick<WorkerEnv, 'CHROMIUM_PATH' | 'RENDER_IDLE_MS' | 'RENDER_SETTLE_MAX_MS' | 'EGRESS_MAX_BYTES'>;

export interface RenderingOptions {
  env: RenderingEnv;
  policy: AddressPolicy;
  resolver?: HostResolver;
}

/** The running parts: the service, its engines, and the egress proxy the browsers go through. */
export interface Rendering {
  service: RenderService;
  engines: { http: HttpEngine; playwright: PlaywrightEngine; puppeteer: PuppeteerEngine };
  proxy: EgressProxy;
  close(): Promise<void>;
}

/**
 * Starts the egress proxy and sets up the engines; browsers launch on the first page that needs
 * one, so a worker that never renders in a browser never starts Chromium.
 */
export async function startRendering({ env, policy, resolver }: RenderingOptions): Promise<Rendering> {
  const refusals = new RefusalLog();
  const proxy = await startEgressProxy({
    policy,
    resolver,
    onRefusal: refusals.record,
    maxBytes: env.EGRESS_MAX_BYTES,
  });
  const browserSettings = {
    executablePath: resolveChromiumPath(env.CHROMIUM_PATH),
    proxyUrl: proxy.url,
    // One limits object for both engines.
    limits: poolLimits(env),
    idleMs: env.RENDER_IDLE_MS,
    settleMaxMs: env.RENDER_SETTLE_MAX_MS,
    refusals,
  };
  const engines = {
    http: new HttpEngine({ policy, resolver }),
    playwright: new PlaywrightEngine(browserSettings),
    puppeteer: new PuppeteerEngine(browserSettings),
  };
  return {
    service: new RenderService(engines),
    engines,
    proxy,
    close: async () => {
      await Promise.all(Object.values(engines).map((engine) => engine.close()));
      await proxy.close();
    },
  };
}
