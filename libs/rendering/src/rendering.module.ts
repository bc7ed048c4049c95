import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { WorkerEnv } from '@app/config';
import { AddressPolicy, HOST_RESOLVER, NetGuardModule, type HostResolver } from '@app/net-guard';
import { startRendering, type Rendering } from './rendering';
import { RenderService } from './render.service';

const RENDERING = Symbol('RENDERING');

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
  ],
  exports: [RenderService],
})
export class RenderingModule implements OnApplicationShutdown {
  constructor(@Inject(RENDERING) private readonly rendering: Rendering) {}

  async onApplicationShutdown(): Promise<void> {
    await this.rendering.close();
  }
}
