import { lookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { AddressPolicy } from './address-policy';
import { BlockedAddressError, DnsError } from './errors';

/** Answers every address a host name stands for. Injectable so tests need no DNS. */
export type HostResolver = (host: string) => Promise<string[]>;

/** getaddrinfo, as Node itself would resolve the name (hosts file included). */
export const defaultResolver: HostResolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * RFC 6761: `localhost` and every `*.localhost` name is loopback, whatever DNS says, and Chromium
 * resolves them so itself. Both families count, so with only 127.0.0.1/32 open such a name is
 * refused: ::1 is in its set, and a browser may pick either.
 */
const LOCALHOST_ADDRESSES = ['127.0.0.1', '::1'];

/** A URL or request-line host without IPv6 brackets and without the root label's trailing dot. */
export function bareHost(host: string): string {
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

/**
 * The addresses a connection to `host` may use: all of them vetted, so a caller that dials only
 * these (never resolving again) cannot be rebound to a refused address.
 */
export async function resolveAllowed(
  host: string,
  policy: AddressPolicy,
  resolver: HostResolver = defaultResolver,
): Promise<string[]> {
  const name = bareHost(host).toLowerCase();
  let addresses = knownAddresses(name);
  if (!addresses) {
    try {
      addresses = await resolver(name);
    } catch (err) {
      throw new DnsError(`${name} does not resolve (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
    if (addresses.length === 0) throw new DnsError(`${name} has no addresses`);
  }
  assertAllowed(name, addresses, policy);
  return addresses;
}

/** The addresses of a literal IP or a localhost name, known without DNS; null for other names. */
export function knownAddresses(host: string): string[] | null {
  const name = bareHost(host).toLowerCase();
  if (isIP(name)) return [name];
  if (name === 'localhost' || name.endsWith('.localhost')) return LOCALHOST_ADDRESSES;
  return null;
}

/** Any refused answer refuses the name: a mixed set is how rebinding and split-horizon tricks look. */
export function assertAllowed(name: string, addresses: string[], policy: AddressPolicy): void {
  const refused = addresses.find((a) => !policy.isAllowed(a));
  if (refused !== undefined) {
    const why = policy.explain(refused);
    throw new BlockedAddressError(refused === name ? why : `${name} resolves to ${refused}: ${why}`);
  }
}

function answer(addresses: string[], options: LookupOptions, callback: Parameters<LookupFunction>[2]): void {
  const wanted = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
  const list: LookupAddress[] = addresses
    .map((address) => ({ address, family: isIP(address) }))
    .filter((a) => wanted === 0 || a.family === wanted);
  // Deferred: net attaches its listeners after calling lookup, and dns.lookup is never synchronous.
  process.nextTick(() => {
    if (list.length === 0) {
      const err: NodeJS.ErrnoException = new Error(`no vetted IPv${wanted} address`);
      err.code = 'ENOTFOUND';
      callback(err, '', 0);
    } else if (options.all) callback(null, list);
    else callback(null, list[0].address, list[0].family);
  });
}

/** A `lookup` for net/http/tls that answers only addresses already vetted. */
export function pinnedLookup(addresses: string[]): LookupFunction {
  return (_hostname, options, callback) => answer(addresses, options, callback);
}

/**
 * A `lookup` for net/http/tls that resolves and vets at connect time, so the address dialed is
 * the one checked. Node skips `lookup` for literal IPs: vet those before connecting (guarded
 * agents do).
 */
export function guardedLookup(
  policy: AddressPolicy,
  resolver: HostResolver = defaultResolver,
): LookupFunction {
  return (hostname, options, callback) => {
    resolveAllowed(hostname, policy, resolver).then(
      (addresses) => answer(addresses, options, callback),
      (err: Error) => callback(err, '', 0),
    );
  };
}
