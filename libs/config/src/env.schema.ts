import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';
import { ResultCacheEnv } from './result-cache-env';
import { Doc } from './env-doc';
import { toInt, toList } from './env-transforms';
import { withPdfEnv } from './pdf-env';

export { DatabaseEnv } from './database-env';

const DURATION = /^\d+(ms|s|m|h)$/;
const GENERATED = ' (npm start generates it into .env.local on a developer machine; production must set it)';

// Decorators run bottom-up and only the first failure per variable is reported, so the type check
// sits nearest each property. @Doc gives each variable's meaning for the README once.

/** Settings every long-running process shares: stores, secrets, network policy, retention, webhooks. */
export class SharedEnv extends ResultCacheEnv {
  @Doc('queues, buckets, hot counters, crawl frontiers')
  @Matches(/^rediss?:\/\/.+/, { message: 'must look like redis://host:port/db' })
  REDIS_URL = 'redis://127.0.0.1:6379/0';

  @Doc('prefix of every Redis key, so deployments or test runs can share a Redis')
  @Matches(/^[A-Za-z0-9_:-]+$/)
  REDIS_PREFIX = 'scraper';

  @Doc('key of the HMAC under which API keys are stored', 'none (generated locally)')
  @MinLength(32, { message: 'must be at least 32 characters (generate with: openssl rand -hex 32)' })
  @IsString({ message: `is required${GENERATED}` })
  KEY_HASH_SECRET: string;

  @Matches(/^[0-9a-fA-F]{64}$/, {
    message: 'must be 64 hex characters (generate with: openssl rand -hex 32)',
  })
  @Doc(
    "64 hex chars; encrypts webhook secrets and the caller's request headers and proxy credentials at rest",
    'none (generated locally)',
  )
  @IsString({ message: `is required${GENERATED}` })
  SECRETS_ENCRYPTION_KEY: string;

  @Doc('CIDRs opened explicitly (nothing private is reachable by default)')
  @Transform(toList)
  @Matches(/^[0-9a-fA-F:.]+\/\d{1,3}$/, { each: true, message: 'must be a comma-separated list of CIDRs' })
  NET_ALLOW_CIDRS: string[] = [];

  @Doc(
    '`public`: any public unicast address plus `NET_ALLOW_CIDRS`; `allowlist`: only `NET_ALLOW_CIDRS` (tests and CI)',
  )
  @IsIn(['public', 'allowlist'])
  NET_EGRESS_MODE: 'public' | 'allowlist' = 'public';

  @Doc('results are deleted after this')
  @Transform(toInt)
  @Min(1)
  @IsInt()
  RESULT_RETENTION_DAYS = 7;

  @Doc(
    "delivered and dead-lettered webhook deliveries (with their attempt log) are deleted this many days after their last change (delivery, dead letter or a replay's end), and only once their job has expired; pending ones never",
  )
  @Transform(toInt)
  @Min(1)
  @IsInt()
  WEBHOOK_DELIVERY_RETENTION_DAYS = 7;

  @Doc('waits between webhook attempts')
  @Transform(toList)
  @Matches(DURATION, { each: true, message: 'must be a comma-separated list of durations like 30s,2m,1h' })
  WEBHOOK_RETRY_SCHEDULE: string[] = ['30s', '2m', '10m', '1h', '6h'];

  @Doc('receiver timeout')
  @Transform(toInt)
  @Min(1)
  @IsInt()
  WEBHOOK_TIMEOUT_MS = 30000;

  @Doc('larger results are paged behind `next`')
  @Transform(toInt)
  @Min(1024)
  @IsInt()
  WEBHOOK_INLINE_MAX_BYTES = 5 * 1024 * 1024;

  @Doc(
    "most bytes of page results one read of a batch's or crawl's results holds (GET /v1/jobs/{id}, a webhook's inline part): a page of results may hold fewer than `page_size`, never none; only `next: null` is the end",
    '`8388608` (8 MiB)',
  )
  @Transform(toInt)
  @Min(1024)
  @IsInt()
  RESULT_PAGE_MAX_BYTES = 8 * 1024 * 1024;

  /**
   * The API drains open requests (a sync scrape waits up to its page timeout plus
   * CONTENT_TIMEOUT_MS plus 15 s), the worker finishes or hands back its jobs. k8s
   * terminationGracePeriodSeconds must cover it plus the preStop pause.
   */
  @Doc("how long a SIGTERM drain may take (see Shutdown); keep the orchestrator's grace period above it")
  @Transform(toInt)
  @Min(0)
  @Max(3_600_000)
  @IsInt()
  SHUTDOWN_GRACE_MS = 140_000;

  /**
   * A try that took its worker down (crash, out of memory, a stalled queue job) or crashed the
   * browser counts like any other; the count lives in job_pages (a sync scrape's, on its queue job).
   */
  @Doc(
    'tries of one page in all, across workers, before it fails as `RENDER_CRASH`: a try that crashed the browser or took its worker down (crash, out of memory, stalled) counts',
  )
  @Transform(toInt)
  @Min(1)
  @Max(10)
  @IsInt()
  PAGE_MAX_ATTEMPTS = 2;

  // Shared: the API's wait for a sync scrape allows for a page's content work after its render.
  @Doc(
    "longest a page's content work may take in its thread; past it the thread is ended and the page fails with `TOO_COMPLEX`",
  )
  @Transform(toInt)
  @Min(100)
  @Max(600_000)
  @IsInt()
  CONTENT_TIMEOUT_MS = 15_000;

  /**
   * Node's own variable (a PEM file of extra CAs). Node reads it only when a process starts; the
   * webhook sender and the upstream proxy hop read it again (withExtraCas) so a process given it
   * later (a test runner) trusts it as well.
   */
  @Doc(
    "Node's own: a PEM file of extra CAs webhook receivers and `https://` upstream proxies may use (also read by the sender and the proxy hop, see Webhooks and docs/api.md, Upstream proxies)",
  )
  @IsOptional()
  @IsString()
  NODE_EXTRA_CA_CERTS?: string;
}

export class ApiEnv extends SharedEnv {
  @Doc('API port')
  @Transform(toInt)
  @Min(0)
  @Max(65535)
  @IsInt()
  PORT = 3000;

  /** Without it the admin API answers 401 to everyone. */
  @Doc(
    'bootstrap bearer of the admin API `/admin/v1`: creates the first admin, then keeps working (audited as `bootstrap`)',
    'none (generated locally)',
  )
  @IsOptional()
  @IsString()
  @MinLength(24, { message: 'must be at least 24 characters' })
  ADMIN_TOKEN?: string;

  @Doc(
    'failed authentications one client address may make a minute (a token bucket in Redis, shared by replicas); past it the answer is a 429 with `retry-after`, before the key costs a query. A key already known valid is never slowed',
  )
  @Transform(toInt)
  @Min(1)
  @IsInt()
  AUTH_FAIL_LIMIT_PER_MIN = 30;

  /** Fastify's trustProxy: a hop count, or the proxies' addresses (proxy-addr's names work too). */
  @Doc(
    "proxies whose `X-Forwarded-For` names the client (for the failed-authentication limit and logs): a hop count, or a comma-separated list of addresses or CIDRs; unset, the socket's peer is the client",
    'none',
  )
  @IsOptional()
  @Matches(/^(\d+|[0-9A-Za-z:./]+(\s*,\s*[0-9A-Za-z:./]+)*)$/, {
    message: 'must be a hop count or a comma-separated list of addresses or CIDRs',
  })
  TRUST_PROXY?: string;

  @Doc('time a client has to send the request line and headers (slow-header clients are cut: 408)')
  @Transform(toInt)
  @Min(1000)
  @IsInt()
  HTTP_HEADERS_TIMEOUT_MS = 10_000;

  /** A 128 MiB batch body needs about 11 s at 100 Mbit/s. */
  @Doc('time a client has to send a whole request, body included (slow-body clients are cut: 408)')
  @Transform(toInt)
  @Min(1000)
  @IsInt()
  HTTP_REQUEST_TIMEOUT_MS = 60_000;

  @Doc("how long an idle keep-alive connection is kept; keep it above a load balancer's idle timeout")
  @Transform(toInt)
  @Min(1000)
  @IsInt()
  HTTP_KEEPALIVE_TIMEOUT_MS = 65_000;
}

export class WorkerEnv extends withPdfEnv(SharedEnv) {
  @Doc("worker's health and metrics port")
  @Transform(toInt)
  @Min(0)
  @Max(65535)
  @IsInt()
  WORKER_PORT = 3001;

  @Doc(
    'browser the worker launches',
    "`/usr/lib/chromium/chromium-headless-shell` (Debian's headless shell) if present",
  )
  @IsOptional()
  @IsString()
  CHROMIUM_PATH?: string;

  @Doc(
    '`1` runs Chromium without its sandbox (logged at start). Only where the sandbox cannot run: the worker image runs as uid 1000 with it on; a worker running as root outside production goes without it by itself, and refuses to start in production unless this is `1`',
  )
  @IsIn(['0', '1'])
  CHROMIUM_NO_SANDBOX: '0' | '1' = '0';

  @Doc('queues this worker consumes')
  @Transform(toList)
  @IsIn(['render', 'crawl', 'webhooks'], { each: true })
  WORKER_QUEUES: string[] = ['render', 'crawl', 'webhooks'];

  @Doc(
    "browser pages rendered at once per worker: `auto` sets the level from measured load (CPU of the worker's process tree and of the machine, event-loop delay, free memory, read within its cgroup) between `RENDER_CONCURRENCY_MIN` and `RENDER_CONCURRENCY_MAX`; a number fixes it",
  )
  @Transform(toInt)
  @ValidateIf((env: { RENDER_CONCURRENCY: unknown }) => env.RENDER_CONCURRENCY !== 'auto')
  @Min(1)
  @Max(64)
  @IsInt({ message: 'must be auto or a whole number' })
  RENDER_CONCURRENCY: number | 'auto' = 'auto';

  @Doc('lowest level `RENDER_CONCURRENCY=auto` goes down to')
  @Transform(toInt)
  @Min(1)
  @Max(64)
  @IsInt()
  RENDER_CONCURRENCY_MIN = 1;

  @Doc(
    'highest level `RENDER_CONCURRENCY=auto` goes up to; also the render and crawl jobs a worker takes at once',
    '`0`: 8 per CPU the worker may use, no more than its memory holds at 256 MiB a page over 1 GiB (16 on 2 CPUs with 5 GiB or more; 4 in 2 GiB), at least `RENDER_CONCURRENCY_MIN`',
  )
  @Transform(toInt)
  @Min(0)
  @Max(64)
  @IsInt()
  RENDER_CONCURRENCY_MAX = 0;

  @Doc('pages in flight per target host across all workers')
  @Transform(toInt)
  @Min(1)
  @Max(1000)
  @IsInt()
  HOST_CONCURRENCY = 8;

  @Doc(
    'seconds a running job with work still queued may go without a page finishing before the reconciler gives its unfinished pages their queue entries back (one still queued is not doubled); a job with none of its work queued gets them after 10 s',
  )
  @Transform(toInt)
  @Min(1)
  @IsInt()
  RECONCILER_STALL_S = 600;

  @Doc(
    "minimum delay between a crawl's fetches of one host (robots.txt Crawl-delay, capped at 30 s, wins when larger)",
  )
  @Transform(toInt)
  @Min(0)
  @Max(60_000)
  @IsInt()
  CRAWL_HOST_DELAY_MS = 0;

  /** Google reads the first 500 KiB. */
  @Doc('largest robots.txt read; a larger one is read as no rules', '`524288` (512 KiB)')
  @Transform(toInt)
  @Min(1024)
  @IsInt()
  ROBOTS_MAX_BYTES = 512 * 1024;

  @Doc('time cap of one robots.txt fetch, body included; without an answer in time, no rules')
  @Transform(toInt)
  @Min(100)
  @Max(60_000)
  @IsInt()
  ROBOTS_TIMEOUT_MS = 10_000;

  @Doc(
    "links taken from one page (its `links` format and a crawl's discoveries); the rest of a page's links are not read",
  )
  @Transform(toInt)
  @Min(1)
  @IsInt()
  LINKS_MAX_PER_PAGE = 10_000;

  // Browser pool limits (libs/rendering), named like Crawlee's: a few browsers, each holding a few
  // contexts; contexts and browsers are replaced after a number of pages to shed leaked memory.
  @Doc('browsers per worker')
  @Transform(toInt)
  @Min(1)
  @Max(16)
  @IsInt()
  BROWSER_POOL_SIZE = 1;

  @Doc("browser contexts per browser (one account's pages share a context; accounts never do)")
  @Transform(toInt)
  @Min(1)
  @Max(64)
  @IsInt()
  CONTEXTS_PER_BROWSER = 4;

  /**
   * Each of a context's tabs keeps its renderer process, and a replacement context starts a new
   * one for every page in flight (about 2 s of CPU at 24 in flight). What a context holds in the
   * worker is about 22 KB a navigation (Playwright keeps each navigation's Request and Response
   * until the tab closes), so by default a context lasts as long as its browser
   * (docs/decisions.md, "Rendering").
   */
  @Doc('a context is recycled after this many pages (by default it lasts as long as its browser)')
  @Transform(toInt)
  @Min(1)
  @IsInt()
  CONTEXT_MAX_PAGES = 2000;

  /** Also bounds what the worker holds for a browser's navigations: about 44 MB at 2000. */
  @Doc(
    'a browser is retired after this many pages (this also bounds what the worker keeps of its navigations, about 22 KB each)',
  )
  @Transform(toInt)
  @Min(1)
  @IsInt()
  BROWSER_MAX_PAGES = 2000;

  /** Each page in flight adds about 120 MiB (docs/decisions.md, Rendering: Memory). */
  @Doc(
    'most memory all browsers hold together (PSS of their process trees); past it the largest is replaced',
    '`0`: 1024 + 256 per page of the highest level (`RENDER_CONCURRENCY`, or `RENDER_CONCURRENCY_MAX` under `auto`), no more than the memory the worker may use less 640',
  )
  @Transform(toInt)
  @Min(0)
  @IsInt()
  BROWSER_MAX_MEMORY_MB = 0;

  /** Measured with bench/readiness.bench.ts (docs/decisions.md, "Rendering"). */
  @Doc(
    "the readiness rule's quiet window: a page is ready once loaded, with no fetch, XHR or short timer pending, no request in flight and no DOM change for this long",
  )
  @Transform(toInt)
  @Min(0)
  @Max(10_000)
  @IsInt()
  RENDER_IDLE_MS = 100;

  @Doc(
    'longest wait for a page to be ready once its document is parsed; a page that never goes quiet (polling, endless feeds) is read then',
  )
  @Transform(toInt)
  @Min(0)
  @Max(120_000)
  @IsInt()
  RENDER_SETTLE_MAX_MS = 4000;

  /**
   * Well above a page's 10 MiB of HTML, so an oversized document is still judged by the render path
   * (which counts what Chromium parsed), and a tunnel also carries its origin's other responses for
   * the context's pages (HTTP/2 puts them all on one connection).
   */
  @Doc(
    "most bytes the browser's egress proxy carries from a target over one plain-HTTP answer or one CONNECT tunnel: a larger declared `content-length` is refused (a document so refused is `TOO_LARGE`), a stream is cut there (a subresource fails, the page goes on); keep it well above the 10 MiB HTML cap, which the render path judges",
    '`67108864` (64 MiB)',
  )
  @Transform(toInt)
  @Min(1024 * 1024)
  @IsInt()
  EGRESS_MAX_BYTES = 64 * 1024 * 1024;

  // Content work (parse, `render: auto`'s decision, formats) runs in worker threads, each task
  // bounded (docs/decisions.md, "Content threads").
  @Doc('threads that parse and convert pages', 'the CPUs the worker may use (its cgroup quota, its cpuset)')
  @Transform(toInt)
  @IsOptional()
  @Min(1)
  @Max(256)
  @IsInt()
  CONTENT_THREADS?: number;

  @Doc(
    'heap of each content thread; a page whose content needs more fails with `TOO_COMPLEX` (its thread is replaced)',
  )
  @Transform(toInt)
  @Min(64)
  @Max(16_384)
  @IsInt()
  CONTENT_HEAP_MB = 512;
}
