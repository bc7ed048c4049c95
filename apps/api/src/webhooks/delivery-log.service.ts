import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { And, LessThan, MoreThan, MoreThanOrEqual, Repository } from 'typeorm';
import { NotFoundError } from '@app/common';
import {
  DeliveryStatus,
  WebhookAttempt,
  WebhookDelivery,
  decodeCursor,
  encodeCursor,
} from '@app/persistence';
import { WebhookDeliveries } from '@app/webhooks';
import { OwnerScope, ownerFields, ownerWhere } from '../common/owner-scope';

/** Deliveries one bulk replay call takes; `next` goes on from there. */
const REPLAY_BATCH = 1000;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export interface DeliveryView {
  id: string;
  /** Admin views only. */
  account_id?: string;
  environment?: string;
  job_id: string;
  url: string;
  status: DeliveryStatus;
  attempt_count: number;
  replays: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
}

export interface AttemptView {
  attempt_no: number;
  replay: boolean;
  started_at: string;
  request_headers: Record<string, string>;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

export type DeliveryDetail = DeliveryView & { payload: unknown; attempts: AttemptView[] };

/** What the list and a bulk replay select on, within the caller's scope. */
export interface DeliveryFilter {
  status?: DeliveryStatus;
  jobId?: string;
  /** Created at or after. */
  since?: string;
  /** Created before. */
  until?: string;
  cursor?: string;
}

function toView(d: WebhookDelivery, withOwner: boolean): DeliveryView {
  return {
    ...(withOwner ? ownerFields(d) : {}),
    id: d.id,
    job_id: d.jobId,
    url: d.url,
    status: d.status,
    attempt_count: d.attemptCount,
    replays: d.replays,
    next_attempt_at: iso(d.nextAttemptAt),
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
    delivered_at: iso(d.deliveredAt),
  };
}

function toAttemptView(a: WebhookAttempt): AttemptView {
  return {
    attempt_no: a.attemptNo,
    replay: a.replay,
    started_at: a.startedAt.toISOString(),
    request_headers: a.requestHeaders,
    status_code: a.statusCode,
    latency_ms: a.latencyMs,
    error: a.error,
    response_excerpt: a.responseExcerpt,
  };
}

/**
 * The delivery log: every read and replay is confined to an OwnerScope (a customer's own account
 * and environment; an admin's filter). `withOwner` adds account_id and environment for admins.
 */
@Injectable()
export class DeliveryLog {
  constructor(
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    @InjectRepository(WebhookAttempt) private readonly attempts: Repository<WebhookAttempt>,
    private readonly webhooks: WebhookDeliveries,
  ) {}

  /** Newest first; the payloads stay out of the list (one delivery can be megabytes). */
  async list(
    scope: OwnerScope,
    q: DeliveryFilter & { limit: number },
    withOwner = false,
  ): Promise<{ data: DeliveryView[]; next: string | null }> {
    const before = q.cursor ? decodeCursor(q.cursor, 'msg') : undefined;
    const rows = await this.deliveries.find({
      where: { ...matching(scope, q), ...(before ? { id: LessThan(before) } : {}) },
      select: listColumns,
      order: { id: 'DESC' },
      take: q.limit + 1,
    });
    const page = rows.slice(0, q.limit);
    return {
      data: page.map((d) => toView(d, withOwner)),
      next: rows.length > q.limit ? encodeCursor('msg', page[page.length - 1].id) : null,
    };
  }

  /** One delivery with its logged payload and every attempt, oldest first. */
  async get(scope: OwnerScope, id: string, withOwner = false): Promise<DeliveryDetail> {
    const delivery = await this.owned(scope, id);
    const attempts = await this.attempts.find({ where: { deliveryId: id }, order: { attemptNo: 'ASC' } });
    return {
      ...toView(delivery, withOwner),
      payload: JSON.parse(delivery.payload) as unknown,
      attempts: attempts.map(toAttemptView),
    };
  }

  async replay(scope: OwnerScope, id: string, withOwner = false): Promise<DeliveryView> {
    await this.owned(scope, id);
    await this.webhooks.replay([id]);
    return toView(await this.owned(scope, id), withOwner);
  }

  /** Replays up to REPLAY_BATCH matching deliveries, oldest first; `next` continues the same filter. */
  async replayMatching(
    scope: OwnerScope,
    filter: DeliveryFilter,
  ): Promise<{ replayed: number; next: string | null }> {
    const after = filter.cursor ? decodeCursor(filter.cursor, 'msg') : undefined;
    const rows = await this.deliveries.find({
      where: { ...matching(scope, filter), ...(after ? { id: MoreThan(after) } : {}) },
      select: { id: true },
      order: { id: 'ASC' },
      take: REPLAY_BATCH + 1,
    });
    const batch = rows.slice(0, REPLAY_BATCH).map((r) => r.id);
    await this.webhooks.replay(batch);
    return {
      replayed: batch.length,
      next: rows.length > REPLAY_BATCH ? encodeCursor('msg', batch[batch.length - 1]) : null,
    };
  }

  private async owned(scope: OwnerScope, id: string): Promise<WebhookDelivery> {
    const delivery = /^msg_[0-9a-z]{26}$/.test(id)
      ? await this.deliveries.findOneBy({ id, ...ownerWhere(scope) })
      : null;
    if (!delivery) throw new NotFoundError('Delivery not found');
    return delivery;
  }
}

function matching(scope: OwnerScope, f: DeliveryFilter) {
  const created = [
    ...(f.since ? [MoreThanOrEqual(new Date(f.since))] : []),
    ...(f.until ? [LessThan(new Date(f.until))] : []),
  ];
  return {
    ...ownerWhere(scope),
    ...(f.status ? { status: f.status } : {}),
    ...(f.jobId ? { jobId: f.jobId } : {}),
    ...(created.length ? { createdAt: And(...created) } : {}),
  };
}

const listColumns = {
  id: true,
  accountId: true,
  environment: true,
  jobId: true,
  url: true,
  status: true,
  attemptCount: true,
  replays: true,
  nextAttemptAt: true,
  lastStatusCode: true,
  lastError: true,
  createdAt: true,
  updatedAt: true,
  deliveredAt: true,
} as const;
