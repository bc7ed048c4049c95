// The CI regression guard's sample (test/extract-guard.corpora-spec.ts): 30 WCXB pages with a full
// expected text, spread over the seven page types, and the figures recorded for them in
// bench/extract-guard.json (`npm run bench:extract -- --sample guard --record` writes them).
import { join } from 'node:path';
import { repoRoot } from '../../test/fixtures/fixture-paths';
import type { BenchPage } from './corpora';

export const GUARD_FILE = join(repoRoot(), 'bench', 'extract-guard.json');

export interface GuardRecord {
  command: string;
  commit: string;
  /** The sample's pages, so that a change of the corpora or of the choice shows. */
  pages: string[];
  /** 4-gram F1 and WCXB's word F1 of the service over the sample. */
  f1: number;
  wordF1: number;
}

/** Pages of each type in the sample: articles are WCXB's half, the other six types share the rest. */
const PER_TYPE: Record<string, number> = {
  article: 6,
  forum: 4,
  product: 4,
  collection: 4,
  listing: 4,
  documentation: 4,
  service: 4,
};

/** The fixed sample: for each type, pages at even steps through that type's pages in id order. */
export function guardSample(wcxb: BenchPage[]): BenchPage[] {
  return Object.entries(PER_TYPE).flatMap(([type, count]) => {
    const ofType = wcxb.filter((p) => p.type === type && p.expected);
    return Array.from({ length: count }, (_, i) => ofType[Math.floor(((i + 0.5) * ofType.length) / count)]);
  });
}
