import { Test } from '@nestjs/testing';
import { ConfigModule, SharedEnv, parseEnv } from '@app/config';
import { AddressPolicy } from './address-policy';
import { HOST_RESOLVER, NetGuardModule } from './net-guard.module';
import { defaultResolver } from './resolve-host';

describe('NetGuardModule', () => {
  it('builds the policy from NET_EGRESS_MODE and NET_ALLOW_CIDRS', async () => {
    const env = parseEnv(SharedEnv, {
      KEY_HASH_SECRET: 'k'.repeat(32),
      SECRETS_ENCRYPTION_KEY: 'a'.repeat(64),
      NET_EGRESS_MODE: 'allowlist',
      NET_ALLOW_CIDRS: '127.0.0.1/32, 10.1.0.0/16',
    });
    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule.forShared(env), NetGuardModule],
    }).compile();
    const policy = moduleRef.get(AddressPolicy);
    expect(policy.mode).toBe('allowlist');
    expect(['127.0.0.1', '10.1.2.3', '127.0.0.2', '8.8.8.8'].map((ip) => policy.isAllowed(ip))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(moduleRef.get(HOST_RESOLVER)).toBe(defaultResolver);
  });
});
