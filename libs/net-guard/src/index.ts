export { NetGuardModule, HOST_RESOLVER } from './net-guard.module';
export { AddressPolicy, createAddressPolicy } from './address-policy';
export type { AddressPolicyOptions, EgressMode } from './address-policy';
export { BlockedAddressError, DnsError, FetchFailedError } from './errors';
export type { FetchFailure } from './errors';
export {
  defaultResolver,
  resolveAllowed,
  guardedLookup,
  knownAddresses,
  assertAllowed,
} from './resolve-host';
export type { HostResolver } from './resolve-host';
export { parseTargetUrl, hostIsLiteralIp, vetUrl, MAX_URL_LENGTH } from './url-policy';
export type { UrlKind, ParseUrlOptions } from './url-policy';
export { startEgressProxy } from './egress-proxy';
export type {
  EgressProxy,
  EgressProxyOptions,
  EgressRefusal,
  EgressRefusalCode,
  EgressStats,
} from './egress-proxy';
export { createGuardedAgents, staleSocket } from './guarded-agent';
export type { GuardedAgents, GuardedAgentOptions, PinnedRequestOptions } from './guarded-agent';
export { guardedFetch, withHeaders } from './guarded-fetch';
export type { GuardedFetchOptions, GuardedResponse, HopCookies } from './guarded-fetch';
export { parseUpstreamProxy, dialUpstream, ProxyError, UPSTREAM_PROTOCOLS } from './upstream-proxy';
export type { UpstreamProxy } from './upstream-proxy';
export { withExtraCas } from './trust';
