import { Module } from '@nestjs/common';
import { SharedEnv } from '@app/config';
import { AddressPolicy, createAddressPolicy } from './address-policy';
import { defaultResolver } from './resolve-host';

/** Injection token of the HostResolver (a function type, so it needs a token of its own). */
export const HOST_RESOLVER = Symbol('HOST_RESOLVER');

/** The policy from NET_EGRESS_MODE and NET_ALLOW_CIDRS, and the system resolver. */
@Module({
  providers: [
    {
      provide: AddressPolicy,
      inject: [SharedEnv],
      useFactory: (env: SharedEnv) =>
        createAddressPolicy({ mode: env.NET_EGRESS_MODE, allowCidrs: env.NET_ALLOW_CIDRS }),
    },
    { provide: HOST_RESOLVER, useValue: defaultResolver },
  ],
  exports: [AddressPolicy, HOST_RESOLVER],
})
export class NetGuardModule {}
