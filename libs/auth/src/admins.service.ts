import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, Repository } from 'typeorm';
import { SharedEnv } from '@app/config';
import { ConflictError, InvalidRequestError, NotFoundError, UnauthorizedError, newId } from '@app/common';
import { Admin, AdminKey } from '@app/persistence';
import { generateApiKey, hashApiKey, keyKind } from './api-keys';
import { type StoredKeyView, toStoredKeyView } from './api-keys.service';

/** Who acts on /admin/v1: an admin row, or `bootstrap` (ADMIN_TOKEN) before any admin exists. */
export interface AdminIdentity {
  id: string;
  email: string | null;
}

export interface AdminView {
  id: string;
  email: string;
  created_at: string;
}

export interface AdminKeyView extends StoredKeyView {
  id: string;
  admin_id: string;
}

/** Shown once, in the answer that created it. */
export type IssuedAdminKey = AdminKeyView & { key: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const toAdminView = (a: Admin): AdminView => ({
  id: a.id,
  email: a.email,
  created_at: a.createdAt.toISOString(),
});

const toAdminKeyView = (k: AdminKey): AdminKeyView => ({
  id: k.id,
  admin_id: k.adminId,
  ...toStoredKeyView(k),
});

/**
 * Admins and their `osk_admin_` keys, hashed with KEY_HASH_SECRET as customer keys are. Admin keys
 * are read from MySQL on every request (no cache): admin traffic is light and a revoked admin key
 * must stop at once.
 */
@Injectable()
export class AdminsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectRepository(Admin) private readonly admins: Repository<Admin>,
    @InjectRepository(AdminKey) private readonly keys: Repository<AdminKey>,
    private readonly env: SharedEnv,
  ) {}

  /** The admin behind an `osk_admin_` key; anything else (a customer key included) is unauthorized. */
  async authenticate(token: string): Promise<AdminIdentity> {
    if (keyKind(token) !== 'admin') throw new UnauthorizedError();
    const key = await this.keys.findOne({
      where: { keyHash: hashApiKey(token, this.env.KEY_HASH_SECRET), revokedAt: IsNull() },
      relations: { admin: true },
    });
    if (!key?.admin) throw new UnauthorizedError();
    return { id: key.admin.id, email: key.admin.email };
  }

  async list(): Promise<AdminView[]> {
    return (await this.admins.find({ order: { id: 'ASC' } })).map(toAdminView);
  }

  /** A new admin with one key, shown once. */
  async create(email: string, keyName: string | null): Promise<{ admin: AdminView; key: IssuedAdminKey }> {
    const normalised = email.trim().toLowerCase();
    if (!EMAIL.test(normalised)) throw InvalidRequestError.field('email', 'must be an e-mail address');
    return this.db.transaction(async (em) => {
      const repo = em.getRepository(Admin);
      if (await repo.existsBy({ email: normalised }))
        throw new ConflictError(`an admin with e-mail ${normalised} already exists`);
      const id = newId('adm');
      await repo.insert({ id, email: normalised });
      const key = await this.issueWith(em.getRepository(AdminKey), id, keyName);
      return { admin: toAdminView(await repo.findOneByOrFail({ id })), key };
    });
  }

  async listKeys(adminId: string): Promise<AdminKeyView[]> {
    await this.get(adminId);
    const rows = await this.keys.find({ where: { adminId }, order: { id: 'ASC' } });
    return rows.map(toAdminKeyView);
  }

  async issueKey(adminId: string, name: string | null): Promise<IssuedAdminKey> {
    await this.get(adminId);
    return this.issueWith(this.keys, adminId, name);
  }

  async revokeKey(adminId: string, keyId: string): Promise<AdminKeyView> {
    const key = await this.keys.findOneBy({ id: keyId, adminId });
    if (!key) throw new NotFoundError('admin key not found');
    if (!key.revokedAt)
      await this.keys.update({ id: key.id, revokedAt: IsNull() }, { revokedAt: new Date() });
    return toAdminKeyView(await this.keys.findOneByOrFail({ id: key.id }));
  }

  private async get(id: string): Promise<Admin> {
    const admin = await this.admins.findOneBy({ id });
    if (!admin) throw new NotFoundError('admin not found');
    return admin;
  }

  private async issueWith(repo: Repository<AdminKey>, adminId: string, name: string | null) {
    const { key, prefix, last4 } = generateApiKey('admin');
    const id = newId('key');
    await repo.insert({
      id,
      adminId,
      keyHash: hashApiKey(key, this.env.KEY_HASH_SECRET),
      prefix,
      last4,
      name,
      revokedAt: null,
    });
    return { ...toAdminKeyView(await repo.findOneByOrFail({ id })), key };
  }
}
