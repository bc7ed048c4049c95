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
  value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value)) ? Number(value) : value;
const toList = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : value;

const DURATION = /^\d+(ms|s|m|h)$/;

/** Settings every process shares: stores, secrets, network policy, retention, webhooks. */
export class SharedEnv {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @Matches(/^mysql:\/\/[^/]+\/[A-Za-z0-9_]+(\?.*)?$/, {
    message: 'must look like mysql://user[:password]@host:port/database',
  })
  DATABASE_URL = 'mysql://root@127.0.0.1:3306/scraper';

  @Matches(/^rediss?:\/\/.+/, { message: 'must look like redis://host:port/db' })
  REDIS_URL = 'redis://127.0.0.1:6379/0';

  /** Namespaces every Redis key (queues included), so several deployments or test runs share one Redis. */
  @Matches(/^[A-Za-z0-9_:-]+$/)
  REDIS_PREFIX = 'scraper';

  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters (generate with: openssl rand -hex 32)' })
  KEY_HASH_SECRET: string;

  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'must be 64 hex characters (generate with: openssl rand -hex 32)' })
  SECRETS_ENCRYPTION_KEY: string;

  @Transform(toList)
  @Matches(/^[0-9a-fA-F:.]+\/\d{1,3}$/, { each: true, message: 'must be a comma-separated list of CIDRs' })
  NET_ALLOW_CIDRS: string[] = [];

  @IsIn(['public', 'allowlist'])
  NET_EGRESS_MODE: 'public' | 'allowlist' = 'public';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RESULT_RETENTION_DAYS = 7;

  @Transform(toList)
  @Matches(DURATION, { each: true, message: 'must be a comma-separated list of durations like 30s,2m,1h' })
  WEBHOOK_RETRY_SCHEDULE: string[] = ['30s', '2m', '10m', '1h', '6h'];

  @Transform(toInt)
  @IsInt()
  @Min(1)
  WEBHOOK_TIMEOUT_MS = 30000;

  @Transform(toInt)
  @IsInt()
  @Min(1024)
  WEBHOOK_INLINE_MAX_BYTES = 5 * 1024 * 1024;
}

export class ApiEnv extends SharedEnv {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /** Bootstraps the first admin; without it the admin API answers 401 to everyone. */
  @IsOptional()
  @IsString()
  @MinLength(24, { message: 'must be at least 24 characters' })
  ADMIN_TOKEN?: string;
}

export class WorkerEnv extends SharedEnv {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  WORKER_PORT = 3001;

  @IsOptional()
  @IsString()
  CHROMIUM_PATH?: string;

  @Transform(toList)
  @IsIn(['render', 'crawl', 'webhooks'], { each: true })
  WORKER_QUEUES: string[] = ['render', 'crawl', 'webhooks'];

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  RENDER_CONCURRENCY = 2;
}

function flatten(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const name = prefix + e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => `${name}: ${m.replace(/^\S+ /, '')}`);
    return [...own, ...flatten(e.children ?? [], `${name}.`)];
  });
}

/**
 * Validates an environment against a schema. Empty strings count as unset so that `FOO=` in a
 * .env file falls back to the default rather than failing a format check.
 */
export function parseEnv<T extends object>(schema: new () => T, env: NodeJS.ProcessEnv): T {
  const known = Object.keys(new schema());
  const secretsAndOptional = ['KEY_HASH_SECRET', 'SECRETS_ENCRYPTION_KEY', 'ADMIN_TOKEN', 'CHROMIUM_PATH'];
  const input: Record<string, string> = {};
  for (const key of [...known, ...secretsAndOptional]) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const instance = plainToInstance(schema, input, { exposeDefaultValues: true });
  const errors = validateSync(instance, { forbidUnknownValues: false });
  // A missing secret gets one message that says where it comes from, not every format complaint.
  const missing = ['KEY_HASH_SECRET', 'SECRETS_ENCRYPTION_KEY'].filter((s) => !(s in input));
  const problems = flatten(errors)
    .filter((p) => !missing.some((s) => p.startsWith(`${s}:`)))
    .concat(missing.map((s) => `${s}: is required (npm start generates it into .env.local on a developer machine)`));
  if (problems.length) throw new ConfigError(problems);
  return instance;
}
