// Connection-level failures of MySQL (mysql2, maybe wrapped by TypeORM) and Redis (ioredis).
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'ER_SERVER_SHUTDOWN',
  'ER_CON_COUNT_ERROR',
]);

/**
 * The database or Redis was not there: the work was fine and may be tried again once it is back
 * (the API answers 503). Query errors (bad SQL, constraints) are not outages.
 */
export function isBackingServiceOutage(exception: unknown): boolean {
  const err = exception as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    driverError?: { code?: unknown };
  };
  if (!err || typeof err !== 'object') return false;
  if (OUTAGE_CODES.has(String(err.code)) || OUTAGE_CODES.has(String(err.driverError?.code))) return true;
  // ioredis: commands rejected while the connection is down.
  return err.name === 'MaxRetriesPerRequestError' || err.message === 'Connection is closed.';
}
