// Bench only, never deployed: `npm run bench:api` starts it as the baseline it compares against.
import 'reflect-metadata';
import type { ExecutionContext } from '@nestjs/common';
import { loadApiEnv } from '@app/config';
import { ApiKeyGuard, ApiKeysService, AuthedRequest } from '@app/auth';
import { createApiApp } from '../apps/api/src/bootstrap';

/**
 * The production API built by the same createApiApp, with the work of its global guard taken out:
 * the bench account's AuthContext is resolved once at start-up and attached to every request, no
 * token is taken and no Redis is read. The usage generation is the one the bench really has (none:
 * nothing is ever flushed), so /v1/me's figures are cached as in the guarded API. Routes, pipes,
 * error filter, logging and handlers are unchanged.
 */
async function main(): Promise<void> {
  const env = loadApiEnv();
  const app = await createApiApp({ env });
  const apiKeys = app.get(ApiKeysService);
  const auth = await apiKeys.resolve(apiKeys.keyHash(`Bearer ${process.env.BENCH_API_KEY}`));
  app.get(ApiKeyGuard).canActivate = async (context: ExecutionContext) => {
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    req.auth = auth;
    req.usageGeneration = null;
    return true;
  };
  await app.listen(env.PORT, '127.0.0.1');
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
