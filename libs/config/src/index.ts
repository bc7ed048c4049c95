export { ApiEnv, WorkerEnv, SharedEnv, ConfigError, parseEnv } from './env.schema';
export { ConfigModule, loadApiEnv, loadWorkerEnv, loadSharedEnv, readEnvironment } from './config.module';
export { durationToMs } from './duration';
