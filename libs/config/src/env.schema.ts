import { Transform, plainToInstance } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  ValidationError,
  getMetadataStorage,
  validateSync,
} from 'class-validator';
import { Doc } from './env-doc';

/** Raised when the environment does not satisfy a schema; the message names each bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
const toList = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : value;

const DURATION = /^\d+(ms|s|m|h)$/;
const GENERATED = ' (npm start generates it into .env.local on a developer machine; production must set it)';

// Decorators run bottom-up and only the first failure per variable is reported, so the type check
// sits nearest each property. @Doc gives each variable's meaning for the README once.

/** What reaching the stores takes: enough for the migration runner. */
export class DatabaseEnv {
  @Doc('`production` requires every secret from the environment')
  @IsIn(['development', 'test', 'production'])
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @Doc('pino level; JSON logs, keys and secrets redacted')
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @Matches(/^mysql:\/\/[^/]+\/[A-Za-z0-9_]+(\?.*)?$/, {
    message: 'must look like mysql://user[:password]@host:port/database',
  })
  @Doc('MySQL/MariaDB; the database is created if missing')
  DATABASE_URL = 'mysql://root@127.0.0.1:3306/scraper';
}

/** Settings every long-running process shares: stores, secrets, network policy, retention, webhooks. */
export class SharedEnv extends DatabaseEnv {
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
  @Doc('64 hex chars; encrypts webhook secrets at rest', 'none (generated locally)')
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

  /**
   * The API drains open requests (a sync scrape waits up to its page timeout plus 15 s), the worker
   * finishes or hands back its jobs. k8s terminationGracePeriodSeconds must cover it plus the
   * preStop pause.
   */
  @Doc("how long a SIGTERM drain may take (see Shutdown); keep the orchestrator's grace period above it")
  @Transform(toInt)
  @Min(0)
  @Max(3_600_000)
  @IsInt()
  SHUTDOWN_GRACE_MS = 140_000;

  /**
   * Node's own variable (a PEM file of extra CAs). Node reads it only when a process starts; the
   * webhook sender reads it again so a process given it later (a test runner) trusts it as well.
   */
  @Doc(
    "Node's own: a PEM file of extra CAs webhook receivers may use (also read by the sender, see Webhooks)",
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
}

export class WorkerEnv extends SharedEnv {
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

  @Doc('queues this worker consumes')
  @Transform(toList)
  @IsIn(['render', 'crawl', 'webhooks'], { each: true })
  WORKER_QUEUES: string[] = ['render', 'crawl', 'webhooks'];

  @Doc('pages rendered at once per worker')
  @Transform(toInt)
  @Min(1)
  @Max(64)
  @IsInt()
  RENDER_CONCURRENCY = 2;

  @Doc('pages in flight per target host across all workers')
  @Transform(toInt)
  @Min(1)
  @Max(1000)
  @IsInt()
  HOST_CONCURRENCY = 8;

  @Doc(
    "minimum delay between a crawl's fetches of one host (robots.txt Crawl-delay, capped at 30 s, wins when larger)",
  )
  @Transform(toInt)
  @Min(0)
  @Max(60_000)
  @IsInt()
  CRAWL_HOST_DELAY_MS = 0;

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

  @Doc('network quiet that counts as "settled"')
  @Transform(toInt)
  @Min(0)
  @Max(10_000)
  @IsInt()
  RENDER_IDLE_MS = 500;

  @Doc('longest wait for the load event and network quiet once the document is parsed')
  @Transform(toInt)
  @Min(0)
  @Max(120_000)
  @IsInt()
  RENDER_SETTLE_MAX_MS = 5000;

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
}

function flatten(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const name = prefix + e.property;
    // class-validator's own messages start with the property name; ours do not.
    const own = Object.values(e.constraints ?? {}).map(
      (m) => `${name}: ${m.startsWith(`${e.property} `) ? m.slice(e.property.length + 1) : m}`,
    );
    return [...own, ...flatten(e.children ?? [], `${name}.`)];
  });
}

/**
 * Validates an environment against a schema. Only the schema's own variables are read, and empty
 * strings count as unset so that `FOO=` in a .env file falls back to the default.
 */
export function parseEnv<T extends object>(schema: new () => T, env: NodeJS.ProcessEnv): T {
  const known = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(schema, '', true, false)
      .map((m) => m.propertyName),
  );
  const input: Record<string, string> = {};
  for (const key of known) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const instance = plainToInstance(schema, input, { exposeDefaultValues: true });
  const problems = flatten(validateSync(instance, { forbidUnknownValues: false, stopAtFirstError: true }));
  if (problems.length) throw new ConfigError(problems);
  return instance;
}
