export { ApiEnv, WorkerEnv, SharedEnv, DatabaseEnv } from './env.schema';
export { actionLimits } from './actions-env';
export { sessionCap } from './sessions-env';
export { ConfigError, parseEnv } from './parse-env';
export {
  ConfigModule,
  loadApiEnv,
  loadWorkerEnv,
  loadSharedEnv,
  loadDatabaseEnv,
  readEnvironment,
} from './config.module';
export { loadRenderingEnv } from './rendering-env';
export { durationToMs } from './duration';
export { documentedVariables, type DocumentedVariable } from './env-doc';
