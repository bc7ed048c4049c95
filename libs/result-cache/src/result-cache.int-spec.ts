import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { loadSharedEnv } from '@app/config';
import { RedisKeys } from '@app/persistence';
import {
  NO_METADATA,
  RENDERED_NOW,
  SCRAPE_DEFAULTS,
  type PageResult,
  type ScrapeOptions,
} from '@app/queue-contracts';
import { ResultCache, type CacheOwner } from './result-cache';

describe('ResultCache (real Redis)', () => {
  const env = loadSharedEnv();
  const keys = new RedisKeys(env);
  let redis: Redis;
  const cacheWith = (bounds: Partial<typeof env>) => new ResultCache(redis, keys, { ...env, ...bounds });
  let cache: ResultCache;

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL!);
    cache = cacheWith({});
  });
  afterAll(async () => redis.quit());

  const owner = (environment: CacheOwner['environment'] = 'production'): CacheOwner => ({
    accountId: `acc_${randomBytes(6).toString('hex')}`,
    environment,
  });
  const URL_A = 'http://127.0.0.1:9/a';
  const options = (extra: Partial<ScrapeOptions> = {}): ScrapeOptions => ({
    ...SCRAPE_DEFAULTS,
    max_age: 60_000,
    ...extra,
  });
  const page = (markdown: string, extra: Partial<PageResult> = {}): PageResult => ({
    index: 3,
    url: URL_A,
    final_url: URL_A,
    status_code: 200,
    markdown,
    metadata: { ...NO_METADATA, title: 'A', engine: 'http', ...RENDERED_NOW },
    timings: { total_ms: 40, render_ms: 30 },
    ...extra,
  });

  it('answers a page written within max_age as a hit, for the index and URL asked', async () => {
    const who = owner();
    expect(await cache.get(who, { index: 0, url: URL_A }, options())).toBeNull();
    await cache.put(who, URL_A, options(), page('# A'));
    const hit = await cache.get(who, { index: 7, url: `${URL_A}#part` }, options());
    expect(hit).toMatchObject({
      index: 7,
      url: `${URL_A}#part`,
      markdown: '# A',
      status_code: 200,
      metadata: { title: 'A', engine: 'http', cache_state: 'hit', cached_at: expect.any(String) },
      timings: { render_ms: 0 },
    });
    expect(Date.now() - Date.parse(hit!.metadata.cached_at!)).toBeLessThan(60_000);
  });

  it('serves nothing older than max_age, and nothing without a max_age', async () => {
    const who = owner();
    await cache.put(who, URL_A, options(), page('# A'));
    await sleep(60);
    expect(await cache.get(who, { index: 0, url: URL_A }, options({ max_age: 30 }))).toBeNull();
    expect(await cache.get(who, { index: 0, url: URL_A }, options({ max_age: undefined }))).toBeNull();
    expect(await cache.get(who, { index: 0, url: URL_A }, options({ max_age: 60_000 }))).not.toBeNull();
  });

  it('is never shared across accounts or environments', async () => {
    const who = owner('production');
    await cache.put(who, URL_A, options(), page('# A'));
    expect(
      await cache.get({ ...who, environment: 'sandbox' }, { index: 0, url: URL_A }, options()),
    ).toBeNull();
    expect(await cache.get(owner(), { index: 0, url: URL_A }, options())).toBeNull();
  });

  it('keys on every option that changes content, not on timeout or the order of formats', async () => {
    const who = owner();
    const base = options({ formats: ['markdown', 'links'] });
    await cache.put(who, URL_A, base, page('# A'));
    const get = (o: ScrapeOptions, url = URL_A) => cache.get(who, { index: 0, url }, o);
    expect(await get({ ...base, formats: ['links', 'markdown'], timeout: 5000 })).not.toBeNull();
    for (const changed of [
      { formats: ['markdown' as const] },
      { only_main_content: false },
      { render: 'browser' as const },
      { engine: 'puppeteer' as const },
      { wait_for: 100 },
      { include_tags: ['main'] },
      { mobile: true },
      { proxy: 'none' as const },
      { proxy: { url: 'http://127.0.0.1:3128', password: 'x' } },
    ])
      expect(await get({ ...base, ...changed })).toBeNull();
    expect(await get(base, `${URL_A}?q=1`)).toBeNull();
  });

  it('never writes or serves a request with actions, headers or a session, nor a failed page', async () => {
    const who = owner();
    const refused: Partial<ScrapeOptions>[] = [
      { actions: [{ type: 'wait', milliseconds: 10 }] },
      { headers: { 'x-token': 't' } },
      { sealed_headers: 'v1.sealed' },
      { session_id: 's1' },
    ];
    for (const extra of refused) {
      await cache.put(who, URL_A, options(extra), page('# A'));
      expect(await cache.get(who, { index: 0, url: URL_A }, options())).toBeNull();
    }
    await cache.put(who, URL_A, options(), page('# A'));
    for (const extra of refused)
      expect(await cache.get(who, { index: 0, url: URL_A }, options(extra))).toBeNull();
    const other = 'http://127.0.0.1:9/failed';
    await cache.put(who, other, options(), page('', { error: { code: 'HTTP_5XX', message: 'boom' } }));
    expect(await cache.get(who, { index: 0, url: other }, options())).toBeNull();
  });

  it('is bounded: entries expire with the TTL, an entry over the byte cap is not kept, the oldest go past the cap', async () => {
    const who = owner();
    const small = cacheWith({
      RESULT_CACHE_TTL_MS: 1000,
      RESULT_CACHE_MAX_ENTRY_BYTES: 2048,
      RESULT_CACHE_MAX_ENTRIES: 2,
    });
    await small.put(who, URL_A, options(), page('# A'));
    await small.put(who, `${URL_A}/big`, options(), page('x'.repeat(4096)));
    expect(await small.get(who, { index: 0, url: URL_A }, options())).not.toBeNull();
    expect(await small.get(who, { index: 0, url: `${URL_A}/big` }, options())).toBeNull();
    await sleep(1100);
    expect(await small.get(who, { index: 0, url: URL_A }, options())).toBeNull();

    const capped = cacheWith({ RESULT_CACHE_MAX_ENTRIES: 2 });
    for (const n of [1, 2, 3]) {
      await capped.put(who, `${URL_A}/${n}`, options(), page(`# ${n}`));
      await sleep(2); // oldest by when cached: no two in one millisecond
    }
    const kept = await Promise.all(
      [1, 2, 3].map((n) => capped.get(who, { index: 0, url: `${URL_A}/${n}` }, options())),
    );
    expect(kept.map((r) => r?.markdown ?? null)).toEqual([null, '# 2', '# 3']);
    const index = keys.key('rcache', 'index', who.accountId, who.environment);
    expect(await redis.zcard(index)).toBe(2);
    const prefix = keys.key('rcache', 'page', who.accountId, who.environment, '');
    const stored = await redis.keys(`${prefix}*`);
    expect(stored).toHaveLength(2);
    for (const key of stored) expect(await redis.pttl(key)).toBeLessThanOrEqual(env.RESULT_CACHE_TTL_MS);
  });

  it('is off with a TTL of 0', async () => {
    const who = owner();
    const off = cacheWith({ RESULT_CACHE_TTL_MS: 0 });
    await off.put(who, URL_A, options(), page('# A'));
    expect(await cache.get(who, { index: 0, url: URL_A }, options())).toBeNull();
  });
});
