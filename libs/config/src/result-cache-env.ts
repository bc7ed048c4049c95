import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { ActionsEnv } from './actions-env';
import { Doc } from './env-doc';
import { toInt } from './env-transforms';

/**
 * The result cache's bounds (docs/api.md, Cached results): the API serves hits, the worker fills
 * it, both read them. Its storage is at most ENTRIES entries of at most ENTRY_BYTES each per
 * account and environment, none older than TTL.
 */
export class ResultCacheEnv extends ActionsEnv {
  @Doc(
    "how long a rendered page stays in the result cache (Redis): a request's `max_age` reaches back at most this far; `0` turns the cache off (nothing is written, every request renders)",
    '`172800000` (2 days)',
  )
  @Transform(toInt)
  @Min(0)
  @Max(30 * 24 * 3_600_000)
  @IsInt()
  RESULT_CACHE_TTL_MS = 172_800_000;

  @Doc(
    'most bytes (its JSON) of one cached page result; a larger result (a full-page screenshot, a huge page) is not cached',
    '`1048576` (1 MiB)',
  )
  @Transform(toInt)
  @Min(1024)
  @Max(16 * 1024 * 1024)
  @IsInt()
  RESULT_CACHE_MAX_ENTRY_BYTES = 1_048_576;

  @Doc('most pages cached per account and environment; a new one past it evicts the oldest')
  @Transform(toInt)
  @Min(1)
  @Max(1_000_000)
  @IsInt()
  RESULT_CACHE_MAX_ENTRIES = 1000;
}
