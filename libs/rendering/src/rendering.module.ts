import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { WorkerEnv } from '@app/config';
import { AddressPolicy, HOST_RESOLVER, NetGuardModule, type HostResolver } from '@app/net-guard';
import { ContentPool } from './content-pool/content-pool';
import { startRendering, type Rendering } from './rendering';
import { RenderService } from './render.service';
import type { BrowserEngine } from '@app/queue-contracts';
import type { PoolStats } from './pool-config';

const RENDERING = Symbol('RENDERING');

/** The figures of each browser engine's pool: Playwright's pool and the puppeteer-cluster engine. */
export abstract class BrowserPoolStats {
  abstract read(): Record<BrowserEngine, PoolStats>;
}

/**
 * Browser pages in flight in this worker: the level in force (RENDER_CONCURRENCY, or the
 * autoscaler's) and the highest it may reach, which is also the render and crawl jobs it takes.
 */
export abstract class RenderConcurrency {
  abstract level(): number;
  abstract readonly max: number;
}

/**
 * RenderService for the worker, configured from WorkerEnv and the address policy. The egress
 * proxy starts with the module; browsers start on demand and close on application shutdown.
 */
@Module({
  imports: [NetGuardModule],
  providers: [
    {
      provide: RENDERING,
      inject: [WorkerEnv, AddressPolicy, HOST_RESOLVER],
      useFactory: (env: WorkerEnv, policy: AddressPolicy, resolver: HostResolver) =>
        startRendering({ env, policy, resolver }),
    },
    { provide: RenderService, inject: [RENDERING], useFactory: (rendering: Rendering) => rendering.service },
    { provide: ContentPool, inject: [RENDERING], useFactory: (rendering: Rendering) => rendering.content },
    {
      provide: BrowserPoolStats,
      inject: [RENDERING],
      useFactory: (rendering: Rendering): BrowserPoolStats => ({
        read: () => ({
          playwright: rendering.engines.playwright.stats(),
          puppeteer: rendering.engines.puppeteer.stats(),
        }),
      }),
    },
    {
      provide: RenderConcurrency,
      inject: [RENDERING],
      useFactory: ({ concurrency }: Rendering): RenderConcurrency => ({
        level: () => concurrency.slots.level,
        max: concurrency.bounds.max,
      }),
    },
  ],
  exports: [RenderService, BrowserPoolStats, ContentPool, RenderConcurrency],
})
export class RenderingModule implements OnApplicationShutdown {
  constructor(@Inject(RENDERING) private readonly rendering: Rendering) {}

  async onApplicationShutdown(): Promise<void> {
    await this.rendering.close();
  }
}
