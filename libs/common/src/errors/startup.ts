/** A server the service needs before anything else starts. */
export type Dependency = 'mysql' | 'redis';

const DEPENDENCY: Record<Dependency, { name: string; variable: string; start: string }> = {
  mysql: {
    name: 'MySQL/MariaDB',
    variable: 'DATABASE_URL',
    start: 'start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql',
  },
  redis: {
    name: 'Redis',
    variable: 'REDIS_URL',
    start: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
  },
};

/**
 * One line for a server that could not be reached: what, where (host and port only: the URL may
 * hold a password), why, and how to start it.
 */
export function unreachable(dependency: Dependency, url: string, err: unknown): string {
  const { name, variable, start } = DEPENDENCY[dependency];
  let where = 'an unreadable URL';
  try {
    where = new URL(url).host;
  } catch {
    // the variable's checks name a malformed URL before any connect; keep the line short here
  }
  const reason =
    (err as { code?: string }).code ?? (err instanceof Error ? err.message : String(err)).replace(/\.$/, '');
  return `${name} is not reachable at ${where} (${variable}): ${reason}. Start it, e.g.: ${start}`;
}

/** Turns the usual start-up failures into one line that says what to do. */
export function explainStartupFailure(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const how = (dependency: Dependency) =>
    `${DEPENDENCY[dependency].name} is not reachable (${DEPENDENCY[dependency].variable}). Start it, e.g.: ${DEPENDENCY[dependency].start}`;
  if (/redis/i.test(text) || /:6379\b/.test(text)) return `${how('redis')}\n  (${text})`;
  if (/ECONNREFUSED|ER_ACCESS_DENIED|ER_BAD_DB|PROTOCOL_CONNECTION_LOST|mysql/i.test(text)) {
    return `${how('mysql')}\n  (${text})`;
  }
  return err instanceof Error ? (err.stack ?? text) : text;
}
