import 'reflect-metadata';
import { ConfigError, loadApiEnv } from '@app/config';
import { exitAfterDrain, explainStartupFailure } from '@app/common';
import { createApiApp } from './bootstrap';
import { HttpDrain } from './common/http-drain';

async function main(): Promise<void> {
  const env = loadApiEnv();
  const app = await createApiApp({ env });
  await app.listen(env.PORT, '0.0.0.0');
  // Not Nest's shutdown hooks: they would close Redis and MySQL under the requests still open.
  exitAfterDrain(async () => ((await app.get(HttpDrain).drainAndClose(app, env.SHUTDOWN_GRACE_MS)) ? 0 : 1));
}

main().catch((err: unknown) => {
  // Configuration and unreachable stores are the usual causes: say which, and how to fix it.
  process.stderr.write(`${err instanceof ConfigError ? err.message : explainStartupFailure(err)}\n`);
  process.exit(1);
});
