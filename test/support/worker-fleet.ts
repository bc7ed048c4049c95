import { FixtureSite, FixtureSiteOptions, startFixtureSite } from '../fixtures/site/fixture-site';
import { ApiHarness, TestAccount, createAccount, startApi } from './api-harness';
import { RunningProcess, startWorkerProcess } from './processes';
import { OwnRedis, startRedisServer } from './redis-server';

/**
 * Worker child processes for destructive tests: each starts on the fleet's environment (its own
 * Redis) plus its own overrides, and `stopAll` (an afterEach) SIGKILLs whatever a test left running.
 */
export class WorkerFleet {
  private readonly running: RunningProcess[] = [];

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async start(env: NodeJS.ProcessEnv = {}): Promise<RunningProcess> {
    const proc = await startWorkerProcess({ ...this.env, ...env });
    this.running.push(proc);
    return proc;
  }

  async stopAll(): Promise<void> {
    for (const w of this.running.splice(0)) {
      w.child.kill('SIGKILL');
      await w.exited;
    }
  }
}

/**
 * What a destructive case runs against: the fixture site, a redis-server of its own (so a kill -9
 * or FLUSHALL never touches another test), the API on it with an enterprise account, and a fleet of
 * workers on that Redis (none started yet).
 */
export interface IsolatedService {
  site: FixtureSite;
  redis: OwnRedis;
  api: ApiHarness;
  account: TestAccount;
  workers: WorkerFleet;
  close(): Promise<void>;
}

export async function startIsolatedService(siteOptions?: FixtureSiteOptions): Promise<IsolatedService> {
  // Closed in reverse, also when a later step fails to start.
  const opened: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const stop of opened.splice(0).reverse()) await stop();
  };
  try {
    const site = await startFixtureSite(siteOptions);
    opened.push(() => site.close());
    const redis = await startRedisServer();
    opened.push(() => redis.stop());
    const workers = new WorkerFleet({ REDIS_URL: redis.url });
    opened.push(() => workers.stopAll());
    const api = await startApi({ REDIS_URL: redis.url });
    opened.push(() => api.close());
    const account = await createAccount(api, 'enterprise');
    return { site, redis, api, account, workers, close };
  } catch (err) {
    await close();
    throw err;
  }
}
