import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { newId } from '@app/common';
import { AuditEntry, decodeCursor, encodeCursor } from '@app/persistence';

export interface AuditView {
  id: string;
  admin_id: string;
  action: string;
  target: string | null;
  details: Record<string, unknown> | null;
  request_id: string | null;
  created_at: string;
}

export interface NewAuditEntry {
  adminId: string;
  action: string;
  target: string | null;
  details: Record<string, unknown> | null;
  requestId: string | null;
}

const toView = (e: AuditEntry): AuditView => ({
  id: e.id,
  admin_id: e.adminId,
  action: e.action,
  target: e.target,
  details: e.details,
  request_id: e.requestId,
  created_at: e.createdAt.toISOString(),
});

/** Who did what to which target, when: one row per admin write (see AuditInterceptor). */
@Injectable()
export class AuditLog {
  constructor(@InjectRepository(AuditEntry) private readonly entries: Repository<AuditEntry>) {}

  async record(entry: NewAuditEntry): Promise<void> {
    await this.entries.save(this.entries.create({ id: newId('aud'), ...entry }), { reload: false });
  }

  /** Newest first. */
  async list(q: {
    adminId?: string;
    action?: string;
    target?: string;
    cursor?: string;
    limit: number;
  }): Promise<{ data: AuditView[]; next: string | null }> {
    const before = q.cursor ? decodeCursor(q.cursor, 'aud') : undefined;
    const rows = await this.entries.find({
      where: {
        ...(q.adminId ? { adminId: q.adminId } : {}),
        ...(q.action ? { action: q.action } : {}),
        ...(q.target ? { target: q.target } : {}),
        ...(before ? { id: LessThan(before) } : {}),
      },
      order: { id: 'DESC' },
      take: q.limit + 1,
    });
    const page = rows.slice(0, q.limit);
    return {
      data: page.map(toView),
      next: rows.length > q.limit ? encodeCursor('aud', page[page.length - 1].id) : null,
    };
  }
}
