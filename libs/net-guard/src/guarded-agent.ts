import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AddressPolicy } from './address-policy';
import { BlockedAddressError } from './errors';
import { assertAllowed, bareHost, guardedLookup, pinnedLookup, type HostResolver } from './resolve-host';

export interface GuardedAgentOptions {
  policy: AddressPolicy;
  resolver?: HostResolver;
  keepAlive?: boolean;
  /** Trusted CAs for https instead of the system store (tests; NODE_EXTRA_CA_CERTS adds to it). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** With keepAlive: most idle sockets over both agents; past it the longest idle one closes. Default 64. */
  maxIdleSockets?: number;
  /** With keepAlive: an idle socket closes after this (sooner if the server's Keep-Alive says so). Default 4000. */
  idleMs?: number;
}

/** One agent per scheme, for `http.request({ agent })` and `https.request({ agent })`. */
export interface GuardedAgents {
  http: http.Agent;
  https: https.Agent;
}

/**
 * A request option for guarded agents: the addresses its host resolved to, already vetted. The
 * connection dials only these, and a kept-alive socket serves only requests to the same host,
 * port and addresses, so a name that now resolves elsewhere never rides an older socket.
 */
export interface PinnedRequestOptions extends http.RequestOptions {
  pinned?: string[];
}

type OnCreate = (err: Error | null, socket: Duplex) => void;

/** Whether a request failed only because the kept-alive socket it got had been closed meanwhile. */
export function staleSocket(req: http.ClientRequest, err: NodeJS.ErrnoException): boolean {
  return req.reusedSocket && ['ECONNRESET', 'EPIPE'].includes(err.code ?? '');
}

/**
 * Makes the agent vet at connect time: names through the guarded lookup (so the address dialed is
 * the one checked) or the request's pinned addresses, checked again here; literal IPs here too,
 * since Node never calls `lookup` for them.
 */
function guard<A extends http.Agent>(agent: A, policy: AddressPolicy, resolver?: HostResolver): A {
  const lookup = guardedLookup(policy, resolver);
  const connect = agent.createConnection.bind(agent);
  agent.createConnection = (options: PinnedRequestOptions, onCreate?: OnCreate) => {
    const host = bareHost(options.host ?? options.hostname ?? 'localhost');
    try {
      if (isIP(host) && !policy.isAllowed(host)) throw new BlockedAddressError(policy.explain(host));
      if (options.pinned) assertAllowed(host, options.pinned, policy);
    } catch (err) {
      // http.Agent always passes its callback; without one there is no socket to fail, so throw.
      if (!onCreate) throw err;
      process.nextTick(() => onCreate(err as Error, undefined as unknown as Duplex));
      return undefined;
    }
    return connect({ ...options, lookup: options.pinned ? pinnedLookup(options.pinned) : lookup });
  };
  const name = agent.getName.bind(agent);
  agent.getName = (options?: PinnedRequestOptions) =>
    options?.pinned ? `${name(options)}|${options.pinned.join(',')}` : name(options);
  return agent;
}

/**
 * Bounds the idle sockets of keep-alive agents together: a socket going idle past `max` closes
 * the one idle longest (Node bounds them only per host, or counts busy ones in maxTotalSockets,
 * which would hold a request for a new host until an idle socket times out).
 */
function boundIdle(agents: http.Agent[], max: number): void {
  const idle = new Set<Duplex>();
  const seen = new WeakSet<Duplex>();
  for (const agent of agents) {
    // Node's own returns whether the socket may stay (its @types say void).
    const keep = agent.keepSocketAlive.bind(agent) as (socket: Duplex) => boolean;
    agent.keepSocketAlive = (socket: Duplex) => {
      if (!keep(socket)) return false;
      if (!seen.has(socket)) {
        seen.add(socket);
        socket.once('close', () => idle.delete(socket));
      }
      idle.add(socket);
      for (const oldest of idle) {
        if (idle.size <= max) break;
        idle.delete(oldest);
        oldest.destroy();
      }
      return true;
    };
    const reuse = agent.reuseSocket.bind(agent);
    agent.reuseSocket = (socket, req) => {
      idle.delete(socket);
      reuse(socket, req);
    };
  }
}

/** Agents that connect only to addresses the policy allows; TLS still verifies the host name. */
export function createGuardedAgents({
  policy,
  resolver,
  keepAlive = false,
  ca,
  maxIdleSockets = 64,
  idleMs = 4000,
}: GuardedAgentOptions): GuardedAgents {
  // An idle socket's timeout closes it (Node's agent destroys a free socket that times out).
  const pooling = keepAlive ? { keepAlive, timeout: idleMs, maxFreeSockets: maxIdleSockets } : {};
  const agents = {
    http: guard(new http.Agent(pooling), policy, resolver),
    https: guard(new https.Agent({ ...pooling, ...(ca ? { ca } : {}) }), policy, resolver),
  };
  if (keepAlive) boundIdle([agents.http, agents.https], maxIdleSockets);
  return agents;
}
