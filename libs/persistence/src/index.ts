export * from './entities';
export { PersistenceModule } from './persistence.module';
export { dataSourceOptions } from './data-source-options';
export { runMigrationsLocked, ensureDatabase } from './migrate';
export { RedisModule, REDIS, RedisKeys } from './redis/redis.module';
export { checkDependencies } from './dependency-check';
export { encodeCursor, decodeCursor } from './repositories/cursor';
export { SecretBox, secretBoxProvider } from './secret-box';
export { executePrepared, type Written } from './prepared';
