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
// sits nearest each property.

/** What reaching the stores takes: enough for the migration runner. */
export class DatabaseEnv {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @Matches(/^mysql:\/\/[^/]+\/[A-Za-z0-9_]+(\?.*)?$/, {
    message: 'must look like mysql://user[:password]@host:port/database',
  })
  DATABASE_URL = 'mysql://root@127.0.0.1:3306/scraper';
}

/** Settings every long-running process shares: stores, secrets, network policy, retention, webhooks. */
export class SharedEnv extends DatabaseEnv {
  @Matches(/^rediss?:\/\/.+/, { message: 'must look like redis://host:port/db' })
  REDIS_URL = 'redis://127.0.0.1:6379/0';

  /** Namespaces every Redis key (queues included), so several deployments or test runs share one Redis. */
  @Matches(/^[A-Za-z0-9_:-]+$/)
  REDIS_PREFIX = 'scraper';

  @MinLength(32, { message: 'must be at least 32 characters (generate with: openssl rand -hex 32)' })
  @IsString({ message: `is required${GENERATED}` })
  KEY_HASH_SECRET: string;

  @Matches(/^[0-9a-fA-F]{64}$/, {
    message: 'must be 64 hex characters (generate with: openssl rand -hex 32)',
  })
  @IsString({ message: `is required${GENERATED}` })
  SECRETS_ENCRYPTION_KEY: string;

  @Transform(toList)
  @Matches(/^[0-9a-fA-F:.]+\/\d{1,3}$/, { each: true, message: 'must be a comma-separated list of CIDRs' })
  NET_ALLOW_CIDRS: string[] = [];

  @IsIn(['public', 'allowlist'])
  NET_EGRESS_MODE: 'public' | 'allowlist' = 'public';

  @Transform(toInt)
  @Min(1)
  @IsInt()
  RESULT_RETENTION_DAYS = 7;

  /**
   * Ended webhook deliveries (delivered or dead) and their attempts are deleted this long after
   * their last change, and never while their job is unexpired (see docs/decisions.md).
   */
  @Transform(toInt)
  @Min(1)
  @IsInt()
  WEBHOOK_DELIVERY_RETENTION_DAYS = 7;

  @Transform(toList)
  @Matches(DURATION, { each: true, message: 'must be a comma-separated list of durations like 30s,2m,1h' })
  WEBHOOK_RETRY_SCHEDULE: string[] = ['30s', '2m', '10m', '1h', '6h'];

  @Transform(toInt)
  @Min(1)
  @IsInt()
  WEBHOOK_TIMEOUT_MS = 30000;

  @Transform(toInt)
  @Min(1024)
  @IsInt()
  WEBHOOK_INLINE_MAX_BYTES = 5 * 1024 * 1024;

  /**
   * How long SIGTERM may take: the API drains open requests (a sync scrape waits up to its page
   * timeout plus 15 s), the worker finishes or hands back its jobs. k8s terminationGracePeriodSeconds
   * must cover it plus the preStop pause.
   */
  @Transform(toInt)
  @Min(0)
  @Max(3_600_000)
  @IsInt()
  SHUTDOWN_GRACE_MS = 140_000;

  /**
   * Node's own variable (a PEM file of extra CAs). Node reads it only when a process starts; the
   * webhook sender reads it again so a process given it later (a test runner) trusts it as well.
   */
  @IsOptional()
  @IsString()
  NODE_EXTRA_CA_CERTS?: string;
}

export class ApiEnv extends SharedEnv {
  @Transform(toInt)
  @Min(0)
  @Max(65535)
  @IsInt()
  PORT = 3000;

  /** Bootstraps the first admin; without it the admin API answers 401 to everyone. */
  @IsOptional()
  @IsString()
  @MinLength(24, { message: 'must be at least 24 characters' })
  ADMIN_TOKEN?: string;
}

export class WorkerEnv extends SharedEnv {
  @Transform(toInt)
  @Min(0)
  @Max(65535)
  @IsInt()
  WORKER_PORT = 3001;

  @IsOptional()
  @IsString()
  CHROMIUM_PATH?: string;

  @Transform(toList)
  @IsIn(['render', 'crawl', 'webhooks'], { each: true })
  WORKER_QUEUES: string[] = ['render', 'crawl', 'webhooks'];

  @Transform(toInt)
  @Min(1)
  @Max(64)
  @IsInt()
  RENDER_CONCURRENCY = 2;

  /** Pages in flight per target host across all workers (DESIGN.md "Fairness and politeness"). */
  @Transform(toInt)
  @Min(1)
  @Max(1000)
  @IsInt()
  HOST_CONCURRENCY = 8;

  /** Least time between two crawl fetches of one host; a robots.txt Crawl-delay can make it longer. */
  @Transform(toInt)
  @Min(0)
  @Max(60_000)
  @IsInt()
  CRAWL_HOST_DELAY_MS = 0;

  // Browser pool limits (libs/rendering), named like Crawlee's: a few browsers, each holding a few
  // contexts; contexts and browsers are replaced after a number of pages to shed leaked memory.
  @Transform(toInt)
  @Min(1)
  @Max(16)
  @IsInt()
  BROWSER_POOL_SIZE = 1;

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
  @Transform(toInt)
  @Min(1)
  @IsInt()
  CONTEXT_MAX_PAGES = 2000;

  /** Also bounds what the worker holds for a browser's navigations: about 44 MB at 2000. */
  @Transform(toInt)
  @Min(1)
  @IsInt()
  BROWSER_MAX_PAGES = 2000;

  /** A page counts as settled after this long without network activity. */
  @Transform(toInt)
  @Min(0)
  @Max(10_000)
  @IsInt()
  RENDER_IDLE_MS = 500;

  /** Longest wait for the load event and network quiet once the document is parsed. */
  @Transform(toInt)
  @Min(0)
  @Max(120_000)
  @IsInt()
  RENDER_SETTLE_MAX_MS = 5000;

  /**
   * Most bytes the egress proxy carries from a target to the browser over one plain-HTTP answer or
   * one CONNECT tunnel. Well above a page's 10 MiB of HTML, so an oversized document is still judged
   * by the render path (which counts what Chromium parsed), and a tunnel also carries its origin's
   * other responses for the context's pages (HTTP/2 puts them all on one connection).
   */
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
