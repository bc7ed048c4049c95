const HOW_TO_START = {
  mysql:
    'MySQL/MariaDB is not reachable (DATABASE_URL). Start it, e.g.: start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql',
  redis:
    'Redis is not reachable (REDIS_URL). Start it, e.g.: redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
};

/** Turns the usual start-up failures into one line that says what to do. */
export function explainStartupFailure(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  if (/redis/i.test(text) || /:6379\b/.test(text)) return `${HOW_TO_START.redis}\n  (${text})`;
  if (/ECONNREFUSED|ER_ACCESS_DENIED|ER_BAD_DB|PROTOCOL_CONNECTION_LOST|mysql/i.test(text)) {
    return `${HOW_TO_START.mysql}\n  (${text})`;
  }
  return err instanceof Error ? (err.stack ?? text) : text;
}
