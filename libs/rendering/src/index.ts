export { RenderingModule, BrowserPoolStats } from './rendering.module';
export { RenderService } from './render.service';
export type { RenderRequest, RenderEngines, RenderedPage, RenderListener } from './render.service';
export { startRendering } from './rendering';
export type { Rendering, RenderingEnv, RenderingOptions } from './rendering';
export type { PoolLimits, PoolStats } from './browser-pool';
export { EgressUnavailableError } from './page-errors';
export { CHROMIUM_FLAGS, chromiumArgs, resolveChromiumPath } from './engines/chromium';
