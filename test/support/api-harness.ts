import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiEnv, loadApiEnv } from '@app/config';
import { createApiApp } from '../../apps/api/src/bootstrap';

export interface ApiHarness {
  app: NestFastifyApplication;
  env: ApiEnv;
  http: () => ReturnType<typeof request>;
  /** Every log line the app wrote, as raw text. */
  logs: string[];
  admin: (req: request.Test) => request.Test;
  close: () => Promise<void>;
}

/** Boots the real API in-process against the run's test database and Redis prefix. */
export async function startApi(overrides: Partial<Record<keyof ApiEnv, string>> = {}): Promise<ApiHarness> {
  const env = loadApiEnv({ ...process.env, LOG_LEVEL: 'info', ...overrides });
  const logs: string[] = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const app = await createApiApp({ env, logDestination });
  await app.init();
  // Fastify adds its routes on ready(); listen() would call it, supertest does not.
  await app.getHttpAdapter().getInstance().ready();
  const server = app.getHttpServer();
  return {
    app,
    env,
    logs,
    http: () => request(server),
    admin: (req) => req.set('Authorization', `Bearer ${env.ADMIN_TOKEN}`),
    // A test is over: connections a client left open (keep-alive, a request it gave up on) must
    // not hold the teardown, which would otherwise wait for them.
    close: async () => {
      const closing = app.close();
      server.closeAllConnections();
      await closing;
    },
  };
}

export interface TestAccount {
  id: string;
  email: string;
  liveKey: string;
  testKey: string;
  keys: { id: string; environment: string; key: string }[];
}

/** A fresh account per test through the admin API, so tests never truncate each other's data. */
export async function createAccount(api: ApiHarness, plan = 'starter'): Promise<TestAccount> {
  const email = `t-${randomBytes(6).toString('hex')}@example.test`;
  const res = await api.admin(api.http().post('/admin/v1/accounts')).send({ email, plan });
  if (res.status !== 201)
    throw new Error(`account creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  const keys = res.body.keys as TestAccount['keys'];
  return {
    id: res.body.account.id,
    email,
    keys,
    liveKey: keys.find((k) => k.environment === 'production')!.key,
    testKey: keys.find((k) => k.environment === 'sandbox')!.key,
  };
}

/** An account on a plan of its own, for tests that need a plan's limits set. */
export async function createAccountOnPlan(
  api: ApiHarness,
  plan: { ratePerMinute: number; monthlyQuota: number; maxConcurrentPages: number },
): Promise<TestAccount> {
  const name = `plan_${randomBytes(4).toString('hex')}`;
  await api.app
    .get(DataSource)
    .query(
      'INSERT INTO plans (name, rate_per_minute, monthly_quota, max_concurrent_pages) VALUES (?, ?, ?, ?)',
      [name, plan.ratePerMinute, plan.monthlyQuota, plan.maxConcurrentPages],
    );
  return createAccount(api, name);
}
