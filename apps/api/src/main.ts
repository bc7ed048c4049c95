import 'reflect-metadata';
import { ConfigError, loadApiEnv } from '@app/config';
import { explainStartupFailure } from '@app/common';
import { createApiApp } from './bootstrap';

async function main(): Promise<void> {
  const env = loadApiEnv();
  const app = await createApiApp({ env });
  await app.listen(env.PORT, '0.0.0.0');
}

main().catch((err: unknown) => {
  // Configuration and unreachable stores are the usual causes: say which, and how to fix it.
  process.stderr.write(`${err instanceof ConfigError ? err.message : explainStartupFailure(err)}\n`);
  process.exit(1);
});
