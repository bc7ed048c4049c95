import { InvalidRequestError } from '@app/common';

/** idx: a page index; job, msg, acc, aud: a job, webhook delivery, account or audit entry id (`<kind>_` + ULID). */
type CursorKind = 'idx' | 'job' | 'msg' | 'acc' | 'aud';
type CursorValue<K extends CursorKind> = K extends 'idx' ? number : string;

/** Opaque to callers: base64url of a tagged position. */
export function encodeCursor<K extends CursorKind>(kind: K, value: CursorValue<K>): string {
  return Buffer.from(JSON.stringify([kind, value])).toString('base64url');
}

export function decodeCursor<K extends CursorKind>(cursor: string, kind: K): CursorValue<K> {
  try {
    const [k, v] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [string, unknown];
    if (k === kind && kind === 'idx' && Number.isInteger(v) && (v as number) >= 0) return v as CursorValue<K>;
    if (
      k === kind &&
      kind !== 'idx' &&
      typeof v === 'string' &&
      new RegExp(`^${kind}_[0-9a-z]{26}$`).test(v)
    ) {
      return v as CursorValue<K>;
    }
  } catch {
    // fall through to the 400 below
  }
  throw InvalidRequestError.field('cursor', 'is not a cursor this endpoint returned');
}
