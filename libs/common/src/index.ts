export * from './errors/domain-errors';
export { REDACT_PATHS, loggerOptions, httpLoggerOptions, createLogger } from './logging/logger';
export { newId } from './ids/ids';
export { type Dependency, explainStartupFailure, unreachable } from './errors/startup';
export { ErrorFilter, logInternal } from './http/error.filter';
export { toErrorResponse } from './http/error-response';
export { isBackingServiceOutage } from './errors/outage';
export { exitAfterDrain, settlesWithin } from './lifecycle/shutdown';
