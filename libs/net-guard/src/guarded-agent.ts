import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AddressPolicy } from './address-policy';
import { BlockedAddressError } from './errors';
import { bareHost, guardedLookup, type HostResolver } from './resolve-host';

export interface GuardedAgentOptions {
  policy: AddressPolicy;
  resolver?: HostResolver;
  keepAlive?: boolean;
  /** Trusted CAs for https instead of the system store (tests; NODE_EXTRA_CA_CERTS adds to it). */
  ca?: string | Buffer | Array<string | Buffer>;
}

/** One agent per scheme, for `http.request({ agent })` and `https.request({ agent })`. */
export interface GuardedAgents {
  http: http.Agent;
  https: https.Agent;
}

type OnCreate = (err: Error | null, socket: Duplex) => void;

/**
 * Makes the agent vet at connect time: names through the guarded lookup (so the address dialed is
 * the one checked), literal IPs here, since Node never calls `lookup` for them.
 */
function guard<A extends http.Agent>(agent: A, policy: AddressPolicy, resolver?: HostResolver): A {
  const lookup = guardedLookup(policy, resolver);
  const connect = agent.createConnection.bind(agent);
  agent.createConnection = (options: http.ClientRequestArgs, onCreate?: OnCreate) => {
    const host = bareHost(options.host ?? options.hostname ?? 'localhost');
    if (isIP(host) && !policy.isAllowed(host)) {
      const err = new BlockedAddressError(policy.explain(host));
      // http.Agent always passes its callback; without one there is no socket to fail, so throw.
      if (!onCreate) throw err;
      process.nextTick(() => onCreate(err, undefined as unknown as Duplex));
      return undefined;
    }
    return connect({ ...options, lookup });
  };
  return agent;
}

/** Agents that connect only to addresses the policy allows; TLS still verifies the host name. */
export function createGuardedAgents({
  policy,
  resolver,
  keepAlive = false,
  ca,
}: GuardedAgentOptions): GuardedAgents {
  return {
    http: guard(new http.Agent({ keepAlive }), policy, resolver),
    https: guard(new https.Agent({ keepAlive, ...(ca ? { ca } : {}) }), policy, resolver),
  };
}
