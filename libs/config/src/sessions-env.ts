import { Transform } from 'class-transformer';
import { IsInt, Matches, Max, Min } from 'class-validator';
import { DatabaseEnv } from './database-env';
import { Doc } from './env-doc';
import { toInt, toList } from './env-transforms';

/** Upstream proxies and sessions' bounds (docs/api.md): both the API and the worker read them. */
export class SessionsEnv extends DatabaseEnv {
  @Doc(
    'the operator\'s upstream proxies, comma-separated `http://`, `https://` or `socks5://` URLs with optional `user:password@` (percent-encoded); pages go through them by default (round robin per page, one per `session_id`) unless a request says `proxy: "none"` or gives its own; their addresses pass the network policy too',
    'none',
  )
  @Transform(toList)
  @Matches(/^(https?|socks5):\/\/[^\s,]+$/, {
    each: true,
    message: 'must be a comma-separated list of http://, https:// or socks5:// URLs',
  })
  PROXY_URLS: string[] = [];

  @Doc('minutes a session lives after the last request that used it; then it is forgotten')
  @Transform(toInt)
  @Min(1)
  @Max(7 * 24 * 60)
  @IsInt()
  SESSION_IDLE_MINUTES = 30;

  @Doc(
    'live sessions an account may have per environment on a plan `SESSIONS_MAX_BY_PLAN` does not name; a request opening one more is a 409',
  )
  @Transform(toInt)
  @Min(0)
  @IsInt()
  SESSIONS_MAX = 100;

  @Doc('live sessions per account and environment by plan name, as `plan=count` pairs')
  @Transform(toList)
  @Matches(/^[A-Za-z0-9_-]{1,32}=\d{1,9}$/, {
    each: true,
    message: 'must be a comma-separated list of plan=count pairs',
  })
  SESSIONS_MAX_BY_PLAN: string[] = ['free=5', 'starter=50', 'pro=500', 'enterprise=5000'];
}

/** The most live sessions an account of `plan` may have per environment. */
export function sessionCap(env: Pick<SessionsEnv, 'SESSIONS_MAX' | 'SESSIONS_MAX_BY_PLAN'>, plan: string) {
  const pair = env.SESSIONS_MAX_BY_PLAN.find((p) => p.slice(0, p.indexOf('=')) === plan);
  return pair ? Number(pair.slice(pair.indexOf('=') + 1)) : env.SESSIONS_MAX;
}
