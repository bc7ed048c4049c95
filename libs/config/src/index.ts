export { ApiEnv, WorkerEnv, SharedEnv, DatabaseEnv, ConfigError, parseEnv } from './env.schema';
export {
  ConfigModule,
  loadApiEnv,
  loadWorkerEnv,
  loadSharedEnv,
  loadDatabaseEnv,
  readEnvironment,
} from './config.module';
export { durationToMs } from './duration';
export { documentedVariables, type DocumentedVariable } from './env-doc';
