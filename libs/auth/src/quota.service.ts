import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { QuotaExceededError } from '@app/common';
import { Environment, QuotaMonthly } from '@app/persistence';
import type { AuthContext } from './auth-context';

/** The UTC month `at` falls in: its first day (the row's key) and the instant the next one begins. */
export function quotaMonth(at: Date): { month: string; resetsAt: Date } {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  return {
    month: new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10),
    resetsAt: new Date(Date.UTC(year, month + 1, 1)),
  };
}

interface WriteResult {
  affectedRows: number;
}

type Row = [accountId: string, environment: Environment, month: string];

/**
 * Quota (docs/decisions.md, Quota): pages are reserved when a job is accepted (a batch of N
 * reserves N, a crawl its limit, a sync scrape 1) and given back when unused. One conditional
 * UPDATE on the month's row decides each reservation, so concurrent requests can never overspend;
 * MySQL is the only record, so nothing is lost when Redis is. The plan's quota comes with the
 * caller's AuthContext, read on every request, so a plan change applies to the next reservation.
 */
@Injectable()
export class QuotaService {
  constructor(@InjectRepository(QuotaMonthly) private readonly quota: Repository<QuotaMonthly>) {}

  /** Reserves `pages` of the month `now` falls in, or throws QuotaExceededError (402) and reserves nothing. */
  async reserve(
    auth: Pick<AuthContext, 'accountId' | 'environment' | 'plan'>,
    pages: number,
    now = new Date(),
  ): Promise<void> {
    assertPages(pages);
    if (pages === 0) return;
    const { month, resetsAt } = quotaMonth(now);
    const row: Row = [auth.accountId, auth.environment, month];
    const limit = auth.plan.monthlyQuota;
    if (await this.tryReserve(row, pages, limit)) return;
    // The month's first reservation: create its row (a no-op when a concurrent request did) and retry.
    await this.quota.query(
      `INSERT INTO quota_monthly (account_id, environment, month, reserved) VALUES (?, ?, ?, 0)
       ON DUPLICATE KEY UPDATE reserved = reserved`,
      row,
    );
    if (await this.tryReserve(row, pages, limit)) return;
    const [current] = await this.quota.query<{ reserved: number }[]>(
      'SELECT reserved FROM quota_monthly WHERE account_id = ? AND environment = ? AND month = ?',
      row,
    );
    throw new QuotaExceededError(limit, Number(current?.reserved ?? 0), resetsAt);
  }

  /** Gives back pages reserved in the month of `monthOf` (a crawl's unused limit, cancelled pages). */
  async release(accountId: string, environment: Environment, pages: number, monthOf: Date): Promise<void> {
    assertPages(pages);
    if (pages === 0) return;
    await this.quota.query(
      `UPDATE quota_monthly SET reserved = GREATEST(reserved - ?, 0)
        WHERE account_id = ? AND environment = ? AND month = ?`,
      [pages, accountId, environment, quotaMonth(monthOf).month],
    );
  }

  private async tryReserve(row: Row, pages: number, limit: number): Promise<boolean> {
    const result = await this.quota.query<WriteResult>(
      `UPDATE quota_monthly SET reserved = reserved + ?
        WHERE account_id = ? AND environment = ? AND month = ? AND reserved + ? <= ?`,
      [pages, ...row, pages, limit],
    );
    return result.affectedRows === 1;
  }
}

function assertPages(pages: number): void {
  if (!Number.isSafeInteger(pages) || pages < 0)
    throw new Error(`pages must be a whole number >= 0, got ${pages}`);
}
