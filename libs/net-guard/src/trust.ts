import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

/**
 * Node's store plus the PEM file NODE_EXTRA_CA_CERTS names, as a TLS client's `ca`, or undefined
 * without one (Node's store then). Node reads that file only when a process starts; this reads it
 * again, so a process given it later (a test runner's in-process worker) trusts it as well.
 */
export function withExtraCas(extraCaFile: string | undefined): string[] | undefined {
  return extraCaFile ? [...rootCertificates, readFileSync(extraCaFile, 'utf8')] : undefined;
}
