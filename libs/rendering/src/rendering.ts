import { availableParallelism } from 'node:os';
import { Logger } from '@nestjs/common';
import { actionLimits, type WorkerEnv } from '@app/config';
import {
  startEgressProxy,
  type AddressPolicy,
  type EgressProxy,
  type HostResolver,
  type UpstreamProxy,
  withExtraCas,
} from '@app/net-guard';
import { Autoscaler } from './autoscale/autoscaler';
import { BrowserSlots } from './autoscale/browser-slots';
import { readCgroup } from './autoscale/cgroup';
import {
  concurrencyBounds,
  type ConcurrencyBounds,
  type ConcurrencyEnv,
} from './autoscale/concurrency-bounds';
import { LoadSampler, machineShare } from './autoscale/load-sampler';
import { ContentPool, type ContentPoolEnv } from './content-pool/content-pool';
import { BrowserMemoryGuard } from './engines/browser-memory';
import { resolveChromiumPath } from './engines/chromium';
import { decideSandbox } from './engines/containment';
import { probeSandbox } from './engines/sandbox-probe';
import { HttpEngine } from './engines/http.engine';
import { PlaywrightEngine } from './engines/playwright.engine';
import { PuppeteerEngine } from './engines/puppeteer.engine';
import { poolLimits, type PoolEnv } from './pool-config';
import { RefusalLog } from './refusal-log';
import { RenderService } from './render.service';

export type RenderingEnv = PoolEnv &
  ConcurrencyEnv &
  ContentPoolEnv &
  Pick<
    WorkerEnv,
    | 'NODE_ENV'
    | 'CHROMIUM_PATH'
    | 'CHROMIUM_NO_SANDBOX'
    | 'RENDER_IDLE_MS'
    | 'RENDER_SETTLE_MAX_MS'
    | 'EGRESS_MAX_BYTES'
    | 'ACTIONS_MAX_COUNT'
    | 'ACTIONS_MAX_WAIT_MS'
    | 'ACTIONS_MAX_SCRIPT_BYTES'
    | 'ACTIONS_MAX_SCREENSHOT_BYTES'
    | 'NODE_EXTRA_CA_CERTS'
    | 'PDF_MAX_BYTES'
  >;

export interface RenderingOptions {
  env: RenderingEnv;
  policy: AddressPolicy;
  resolver?: HostResolver;
}

/**
 * The running parts: the service, its engines, the content threads, and the egress proxy the
 * browsers go through.
 */
export interface Rendering {
  service: RenderService;
  engines: { http: HttpEngine; playwright: PlaywrightEngine; puppeteer: PuppeteerEngine };
  content: ContentPool;
  proxy: EgressProxy;
  /** The browser pages in flight: the level in force (BrowserSlots) within its bounds. */
  concurrency: { slots: BrowserSlots; bounds: ConcurrencyBounds };
  close(): Promise<void>;
}

/**
 * Starts the egress proxy and sets up the engines; browsers launch on the first page that needs
 * one, so a worker that never renders in a browser never starts Chromium.
 */
export async function startRendering({ env, policy, resolver }: RenderingOptions): Promise<Rendering> {
  // Decided before anything starts: a root worker in production fails here, not at its first page.
  const sandbox = decideSandbox({
    uid: process.getuid?.(),
    noSandbox: env.CHROMIUM_NO_SANDBOX === '1',
    nodeEnv: env.NODE_ENV,
  });
  const executablePath = resolveChromiumPath(env.CHROMIUM_PATH);
  if (!sandbox.sandbox) new Logger('Rendering').warn(sandbox.warning);
  else if (executablePath) await probeSandbox(executablePath);
  const refusals = new RefusalLog();
  const proxy = await startEgressProxy({
    policy,
    resolver,
    onRefusal: refusals.record,
    maxBytes: env.EGRESS_MAX_BYTES,
  });
  // Sized by what the worker's cgroup allows, not by the host it runs on.
  const cgroup = readCgroup();
  const share = machineShare(cgroup, availableParallelism());
  const bounds = concurrencyBounds(env, share);
  const limits = poolLimits(env, bounds, share);
  const slots = new BrowserSlots(bounds.start);
  const autoscaler = bounds.auto
    ? new Autoscaler(slots, new LoadSampler(cgroup, share.cpus, share.memoryBytes), bounds)
    : undefined;
  // What an https upstream proxy's certificate may chain to: Node's store and the operator's extra CAs.
  const ca = withExtraCas(env.NODE_EXTRA_CA_CERTS);
  const browserSettings = {
    executablePath,
    proxyUrl: proxy.url,
    egressVia: (upstream: UpstreamProxy) =>
      startEgressProxy({
        policy,
        resolver,
        onRefusal: refusals.record,
        maxBytes: env.EGRESS_MAX_BYTES,
        upstream,
        ca,
      }),
    sandbox: sandbox.sandbox,
    // One limits object for both engines.
    limits,
    idleMs: env.RENDER_IDLE_MS,
    settleMaxMs: env.RENDER_SETTLE_MAX_MS,
    actionLimits: actionLimits(env),
    refusals,
    pdfMaxBytes: env.PDF_MAX_BYTES,
    // One bound over both engines' browsers.
    memory: new BrowserMemoryGuard(limits.browserMaxMemoryMb * 2 ** 20),
  };
  const engines = {
    http: new HttpEngine({ policy, resolver, ca }, env.PDF_MAX_BYTES),
    playwright: new PlaywrightEngine(browserSettings),
    puppeteer: new PuppeteerEngine(browserSettings),
  };
  const content = new ContentPool(env, Math.max(1, Math.ceil(share.cpus)));
  return {
    service: new RenderService(engines, content, slots),
    engines,
    content,
    proxy,
    concurrency: { slots, bounds },
    close: async () => {
      autoscaler?.close();
      await Promise.all([...Object.values(engines).map((engine) => engine.close()), content.close()]);
      browserSettings.memory.close();
      await proxy.close();
    },
  };
}
