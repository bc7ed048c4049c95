// Bench only, never deployed: `npm run bench:api` starts it as the baseline it compares against.
import 'reflect-metadata';
import type { ExecutionContext } from '@nestjs/common';
import { loadApiEnv } from '@app/config';
import { ApiKeyGuard, ApiKeysService, AuthedRequest, RateLimitGuard } from '@app/auth';
import { createApiApp } from '../apps/api/src/bootstrap';

/**
 * The production API built by the same createApiApp, with the work of its two global guards taken
 * out: the bench account's AuthContext is resolved once at start-up and attached to every request,
 * and no token is taken. Routes, pipes, error filter, logging and handlers are unchanged.
 */
async function main(): Promise<void> {
  const env = loadApiEnv();
  const app = await createApiApp({ env });
  const auth = await app.get(ApiKeysService).authenticate(`Bearer ${process.env.BENCH_API_KEY}`);
  app.get(ApiKeyGuard).canActivate = async (context: ExecutionContext) => {
    context.switchToHttp().getRequest<AuthedRequest>().auth = auth;
    return true;
  };
  app.get(RateLimitGuard).canActivate = async () => true;
  await app.listen(env.PORT, '127.0.0.1');
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
