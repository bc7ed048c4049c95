import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

type Cas = string | Buffer | Array<string | Buffer>;

/**
 * Node's store plus the PEM file NODE_EXTRA_CA_CERTS names, as a TLS client's `ca`, or undefined
 * without one (Node's store then). Node reads that file only when a process starts; this reads it
 * again, so a process given it later (a test runner's in-process worker) trusts it as well.
 */
export function withExtraCas(extraCaFile: string | undefined): string[] | undefined {
  return extraCaFile ? [...rootCertificates, readFileSync(extraCaFile, 'utf8')] : undefined;
}

const contexts = new WeakMap<Array<string | Buffer>, SecureContext>();

/**
 * tls.connect options trusting `ca`. A list (withExtraCas's: Node's whole store) becomes one
 * secure context, built once per list and reused: building it costs 10 to 30 ms of CPU, which
 * every proxied connection would pay otherwise.
 */
export function trusting(ca: Cas | undefined): { ca?: Cas; secureContext?: SecureContext } {
  if (!ca) return {};
  if (!Array.isArray(ca)) return { ca };
  let context = contexts.get(ca);
  if (!context) {
    context = createSecureContext({ ca });
    contexts.set(ca, context);
  }
  return { secureContext: context };
}
