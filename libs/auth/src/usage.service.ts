import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Environment, UsageDaily } from '@app/persistence';

export interface UsageSummary {
  requests_this_month: number;
  requests_today: number;
  avg_response_ms: number;
  success_rate: number;
}

export interface UsageDay {
  day: string;
  pages: number;
  succeeded: number;
  failed: number;
}

interface Totals {
  pages: string | number | null;
  succeeded: string | number | null;
  render_ms: string | number | null;
  today: string | number | null;
}

const DAY_MS = 24 * 3600 * 1000;

/** First day of the UTC month and the UTC day of `now`, as DATE strings. */
export function utcPeriod(now: Date): { monthStart: string; today: string } {
  const today = now.toISOString().slice(0, 10);
  return { monthStart: `${today.slice(0, 7)}-01`, today };
}

interface Cached {
  summary: UsageSummary;
  generation: string | null;
  expiresAt: number;
}

/** A safety net for usage_daily rows changed behind the flusher's back: they show within this time. */
const TTL_MS = 5000;
const MAX_ENTRIES = 10_000;

/**
 * A request is a finished page (docs/api.md, Usage); averages and rates are over the
 * current UTC month; success_rate is a fraction 0..1.
 */
@Injectable()
export class UsageService {
  /** Figures by account, environment and UTC day, each with the usage generation it was read under. */
  private readonly cache = new Map<string, Cached>();

  constructor(@InjectRepository(UsageDaily) private readonly usage: Repository<UsageDaily>) {}

  /**
   * The figures of the month so far. usage_daily only changes when UsageFlusher writes, and every
   * such flush changes the usage generation in Redis (UsageKeys.generation); given the generation
   * read during this request (ApiKeyGuard reads it with the rate-limit token), figures read under
   * the same generation are answered from memory, so they stay exact after every flush.
   */
  async summary(
    accountId: string,
    environment: Environment,
    generation?: string | null,
    now = new Date(),
  ): Promise<UsageSummary> {
    const { monthStart, today } = utcPeriod(now);
    const key = `${accountId}:${environment}:${today}`;
    const hit = this.cache.get(key);
    if (generation !== undefined && hit && hit.generation === generation && hit.expiresAt > Date.now()) {
      return hit.summary;
    }
    const [row] = await this.usage.query<Totals[]>(
      `SELECT SUM(pages) AS pages, SUM(succeeded) AS succeeded, SUM(render_ms_total) AS render_ms,
              SUM(CASE WHEN day = ? THEN pages ELSE 0 END) AS today
         FROM usage_daily
        WHERE account_id = ? AND environment = ? AND day >= ? AND day <= ?`,
      [today, accountId, environment, monthStart, today],
    );
    const pages = Number(row?.pages ?? 0);
    const summary = {
      requests_this_month: pages,
      requests_today: Number(row?.today ?? 0),
      avg_response_ms: pages ? Math.round((Number(row?.render_ms ?? 0) / pages) * 10) / 10 : 0,
      success_rate: pages ? Math.round((Number(row?.succeeded ?? 0) / pages) * 10000) / 10000 : 0,
    };
    if (generation !== undefined) {
      this.cache.delete(key);
      if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, { summary, generation, expiresAt: Date.now() + TTL_MS });
    }
    return summary;
  }

  /** One entry a UTC day, oldest first, ending today; days without pages are zeros. */
  async daily(
    accountId: string,
    environment: Environment,
    days: number,
    now = new Date(),
  ): Promise<UsageDay[]> {
    const { today } = utcPeriod(now);
    const start = new Date(Date.parse(today) - (days - 1) * DAY_MS).toISOString().slice(0, 10);
    const rows = await this.usage.query<{ day: string; pages: number; succeeded: number; failed: number }[]>(
      `SELECT DATE_FORMAT(day, '%Y-%m-%d') AS day, pages, succeeded, failed
         FROM usage_daily
        WHERE account_id = ? AND environment = ? AND day >= ? AND day <= ?`,
      [accountId, environment, start, today],
    );
    const byDay = new Map(rows.map((r) => [r.day, r]));
    return Array.from({ length: days }, (_, i) => {
      const day = new Date(Date.parse(start) + i * DAY_MS).toISOString().slice(0, 10);
      const r = byDay.get(day);
      return {
        day,
        pages: Number(r?.pages ?? 0),
        succeeded: Number(r?.succeeded ?? 0),
        failed: Number(r?.failed ?? 0),
      };
    });
  }
}
