import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

export type EgressMode = 'public' | 'allowlist';

export interface AddressPolicyOptions {
  /** public: any global unicast address plus allowCidrs; allowlist: only allowCidrs. */
  mode: EgressMode;
  /** Ranges opened explicitly (NET_ALLOW_CIDRS), e.g. '127.0.0.1/32'. */
  allowCidrs: string[];
}

interface Verdict {
  allowed: boolean;
  reason: string;
}

/**
 * Cloud instance metadata endpoints. Their ranges are refused anyway; they are named so that no
 * NET_ALLOW_CIDRS entry (say a whole 169.254.0.0/16 or fd00::/8 opened for a sidecar) can ever
 * hand the instance's credentials to a page.
 */
const METADATA = new Set(
  ['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200', '192.0.0.192'].map((a) =>
    ipaddr.parse(a).toNormalizedString(),
  ),
);

const LABELS: Record<string, string> = {
  private: 'a private address',
  carrierGradeNat: 'a carrier-grade NAT (shared) address',
  loopback: 'a loopback address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local (private) address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'an unspecified address',
  reserved: 'a reserved address',
};

// Global unicast IPv6 space (RFC 4291); whatever lies outside it is not reachable on the internet.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
// RFC 6052's well-known NAT64 prefix embeds a public IPv4; the RFC 8215 local-use prefix does not.
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/** The IPv4 addresses a transition-mechanism IPv6 address would carry traffic to. */
function embeddedIpv4(addr: ipaddr.IPv6, range: string): ipaddr.IPv4[] | undefined {
  const p = addr.parts;
  switch (range) {
    case 'ipv4Mapped':
      return [addr.toIPv4Address()];
    case 'rfc6145':
      return [v4(p[6], p[7])];
    case 'rfc6052':
      return addr.match(NAT64_WELL_KNOWN) ? [v4(p[6], p[7])] : [];
    case '6to4':
      return [v4(p[1], p[2])];
    case 'teredo':
      // Server, then the client address, which Teredo stores inverted (RFC 4380).
      return [v4(p[2], p[3]), v4(p[6] ^ 0xffff, p[7] ^ 0xffff)];
    default:
      return undefined;
  }
}

/**
 * Which peer addresses an outgoing connection may reach (docs/decisions.md, Network policy).
 * Pure: it judges address strings and never dials or resolves anything.
 */
export class AddressPolicy {
  readonly mode: EgressMode;
  private readonly allow: Cidr[];

  constructor(options: AddressPolicyOptions) {
    this.mode = options.mode;
    this.allow = options.allowCidrs.map((c) => {
      if (!ipaddr.isValidCIDR(c)) throw new Error(`not a CIDR: ${c}`);
      return ipaddr.parseCIDR(c);
    });
  }

  isAllowed(ip: string): boolean {
    return this.judge(ip).allowed;
  }

  /** Why an address is refused (or 'allowed'), for error messages and logs. */
  explain(ip: string): string {
    return this.judge(ip).reason;
  }

  private judge(ip: string): Verdict {
    // Only canonical literals: a loose form such as '0x7f.1' must never reach ipaddr's lenient parser.
    if (!isIP(ip)) return { allowed: false, reason: `${ip} is not an IP address` };
    let addr: Address = ipaddr.parse(ip);
    // The kernel dials ::ffff:a.b.c.d as IPv4, so it is judged (and allowlisted) as that IPv4.
    if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
      addr = (addr as ipaddr.IPv6).toIPv4Address();
    }
    if (METADATA.has(addr.toNormalizedString())) {
      return { allowed: false, reason: `${ip} is a cloud metadata endpoint` };
    }
    if (this.allow.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits))) {
      return { allowed: true, reason: 'allowed' };
    }
    if (this.mode === 'allowlist') return { allowed: false, reason: `${ip} is not in NET_ALLOW_CIDRS` };
    const reason = this.publicProblem(addr);
    return reason ? { allowed: false, reason: `${ip} is ${reason}` } : { allowed: true, reason: 'allowed' };
  }

  /** Undefined for a globally routable unicast address, else what it is instead. */
  private publicProblem(addr: Address): string | undefined {
    const range = addr.range();
    if (addr.kind() === 'ipv4')
      return range === 'unicast' ? undefined : (LABELS[range] ?? `special-purpose (${range})`);
    const v6 = addr as ipaddr.IPv6;
    const embedded = embeddedIpv4(v6, range);
    if (embedded) {
      if (embedded.length === 0) return `a local-use NAT64 address`;
      const inner = embedded.map((a) => this.publicProblem(a)).find(Boolean);
      return inner ? `an IPv6 address (${range}) embedding ${inner}` : undefined;
    }
    if (range !== 'unicast') return LABELS[range] ?? `special-purpose (${range})`;
    return v6.match(GLOBAL_UNICAST_V6) ? undefined : 'outside global unicast space (2000::/3)';
  }
}

export function createAddressPolicy(options: AddressPolicyOptions): AddressPolicy {
  return new AddressPolicy(options);
}
