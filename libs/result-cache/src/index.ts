export { ResultCacheModule } from './result-cache.module';
export { ResultCache } from './result-cache';
export type { CacheOwner } from './result-cache';
