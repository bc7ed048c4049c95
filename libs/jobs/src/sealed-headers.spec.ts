import { randomBytes } from 'node:crypto';
import { SecretBox } from '@app/persistence';
import { SCRAPE_DEFAULTS } from '@app/queue-contracts';
import { SealedHeaders } from './sealed-headers';

describe('SealedHeaders', () => {
  const sealer = new SealedHeaders(new SecretBox(randomBytes(32).toString('hex')));
  const owner = { accountId: 'acc_1', environment: 'production' as const };
  const options = { ...SCRAPE_DEFAULTS, headers: { Authorization: 'Bearer cust-secret-1' } };

  it('stores no header in clear, and opens back to the same options', () => {
    const sealed = sealer.seal(options, owner);
    expect(sealed.headers).toBeUndefined();
    expect(JSON.stringify(sealed)).not.toContain('cust-secret-1');
    expect(JSON.stringify(sealed)).not.toContain('Authorization');
    expect(sealer.open(sealed, owner)).toEqual(options);
  });

  it('leaves options without headers as they are', () => {
    expect(sealer.seal(SCRAPE_DEFAULTS, owner)).toEqual(SCRAPE_DEFAULTS);
    expect(sealer.open(SCRAPE_DEFAULTS, owner)).toEqual(SCRAPE_DEFAULTS);
  });

  it("does not open another account's or environment's sealed headers", () => {
    const sealed = sealer.seal(options, owner);
    expect(() => sealer.open(sealed, { ...owner, accountId: 'acc_2' })).toThrow();
    expect(() => sealer.open(sealed, { ...owner, environment: 'sandbox' })).toThrow();
  });
});
