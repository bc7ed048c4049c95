import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { Environment, SecretBox, WebhookSecret } from '@app/persistence';
import { generateWebhookSecret } from './signature';

/** Spec, Authentication 6: after a rotation the old secret's signatures stay valid for 24 hours. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** Whose secret: one per account and environment. */
export interface SecretOwner {
  accountId: string;
  environment: Environment;
}

/** A secret row's sealed values, as stored. */
export type SealedSecrets = Pick<WebhookSecret, 'secretEnc' | 'previousSecretEnc' | 'previousExpiresAt'>;

export interface RevealedSecret {
  secret: string;
  createdAt: Date;
  rotatedAt: Date | null;
  /** Until when the previous secret still signs; null when none does. */
  previousExpiresAt: Date | null;
}

/**
 * Signing secrets, sealed at rest. Made on first use (the first reveal or the first delivery);
 * the clear value leaves this service only for signing and for the owner's own secret endpoints.
 */
@Injectable()
export class WebhookSecrets {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectRepository(WebhookSecret) private readonly secrets: Repository<WebhookSecret>,
    private readonly box: SecretBox,
  ) {}

  async reveal(owner: SecretOwner): Promise<RevealedSecret> {
    return this.toRevealed(owner, await this.ensure(owner));
  }

  /**
   * A new current secret. The replaced one keeps signing for ROTATION_OVERLAP_MS, or stops at once
   * with `expireNow` (a leaked secret). A rotation inside an overlap drops the older previous one.
   */
  async rotate(owner: SecretOwner, expireNow: boolean): Promise<RevealedSecret> {
    await this.ensure(owner);
    const row = await this.db.transaction(async (em) => {
      const repo = em.getRepository(WebhookSecret);
      const locked = await repo.findOneOrFail({ where: scope(owner), lock: { mode: 'pessimistic_write' } });
      const now = new Date();
      locked.previousSecretEnc = expireNow ? null : locked.secretEnc;
      locked.previousExpiresAt = expireNow ? null : new Date(now.getTime() + ROTATION_OVERLAP_MS);
      locked.secretEnc = this.box.seal(generateWebhookSecret(), context(owner));
      locked.rotatedAt = now;
      return repo.save(locked);
    });
    return this.toRevealed(owner, row);
  }

  /**
   * The secrets that sign a delivery now: the current one, then the previous one during its
   * overlap. `sealed` is the owner's row when the caller has already read it.
   */
  async signing(owner: SecretOwner, sealed?: SealedSecrets): Promise<string[]> {
    const row = sealed ?? (await this.ensure(owner));
    const signing = [this.box.open(row.secretEnc, context(owner))];
    if (row.previousSecretEnc && overlapping(row)) {
      signing.push(this.box.open(row.previousSecretEnc, context(owner)));
    }
    return signing;
  }

  private async ensure(owner: SecretOwner): Promise<WebhookSecret> {
    const found = await this.secrets.findOneBy(scope(owner));
    if (found) return found;
    // Two first uses may race: the unique (account, environment) index keeps one, both read it.
    await this.secrets
      .createQueryBuilder()
      .insert()
      .values({
        ...owner,
        secretEnc: this.box.seal(generateWebhookSecret(), context(owner)),
        createdAt: new Date(),
      })
      .orIgnore()
      .execute();
    return this.secrets.findOneByOrFail(scope(owner));
  }

  private toRevealed(owner: SecretOwner, row: WebhookSecret): RevealedSecret {
    return {
      secret: this.box.open(row.secretEnc, context(owner)),
      createdAt: row.createdAt,
      rotatedAt: row.rotatedAt,
      previousExpiresAt: row.previousSecretEnc && overlapping(row) ? row.previousExpiresAt : null,
    };
  }
}

/** Only the owner's two fields, whatever object carries them (a delivery does). */
const scope = ({ accountId, environment }: SecretOwner): SecretOwner => ({ accountId, environment });

/** Binds a sealed secret to its row, so a copy in another account's row does not open. */
const context = (owner: SecretOwner) => `webhook-secret:${owner.accountId}:${owner.environment}`;

const overlapping = (row: SealedSecrets) =>
  row.previousExpiresAt !== null && row.previousExpiresAt.getTime() > Date.now();
