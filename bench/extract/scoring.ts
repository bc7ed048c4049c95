// bench:extract's measures, from the corpora's own score.mjs (imported, not copied: it defines the
// targets' measure): the 4-gram F1 of the averaged precision and recall, WCXB's word F1 (mean of
// per-page F1), and the with/without snippet checks; grouped by corpus, page type and language.
import { join } from 'node:path';
import { CORPORA, corporaDir, type CorpusName } from './corpora';

type Counts = [number, number, number];

interface ScoreModule {
  pageCounts(expected: string, output: string): Counts;
  score(pages: Counts[]): { f1: number; precision: number; recall: number };
  markdownToText(markdown: string): string;
  snippetsPass(output: string, withs?: string[], withouts?: string[]): boolean;
  wordF1(expected: string, output: string): Counts;
}

let scorer: ScoreModule | undefined;

/** score.mjs from CORPORA_DIR (an ES module without top-level await: Node's require loads it). */
export async function loadScorer(): Promise<ScoreModule> {
  scorer ??= (await import(join(corporaDir(), 'score.mjs'))) as ScoreModule;
  return scorer;
}

/** One extractor's result on one page. */
export interface Outcome {
  /** Characters of scored text (0 when the extractor found nothing or failed). */
  chars: number;
  /** Why there is no output: the pool's refusal or failure. */
  error?: string;
  /** CPU of this page alone, when it could be told apart (one page in flight). */
  cpuMs?: number;
  wallMs: number;
  /** [tp, fp, fn] shares of 4-gram shingles, when the page has a full expected text. */
  counts?: Counts;
  /** [precision, recall, F1] of words, when the page has a full expected text. */
  word?: Counts;
  /** Whether every `with` snippet is in and no `without` is; absent without snippets. */
  snippets?: boolean;
  /** The snippets that failed the check, to dig into a failure. */
  missing?: string[];
  unwanted?: string[];
  /** The scored text itself, with --keep-output. */
  output?: string;
}

export interface PageReport {
  key: string;
  corpus: string;
  type: string;
  lang: string;
  charset: string;
  service: Outcome;
  baseline?: Outcome;
}

/** Scores one extractor's text on a page. */
export function scoreOutput(
  s: ScoreModule,
  text: string,
  expected: string | undefined,
  withs: string[],
  withouts: string[],
): Omit<Outcome, 'wallMs'> {
  const norm = (t: string) => t.replace(/\s+/g, ' ').toLowerCase();
  const hasSnippets = withs.length + withouts.length > 0;
  const passed = hasSnippets ? s.snippetsPass(text, withs, withouts) : undefined;
  return {
    chars: text.length,
    ...(expected !== undefined
      ? { counts: s.pageCounts(expected, text), word: s.wordF1(expected, text) }
      : {}),
    ...(passed !== undefined ? { snippets: passed } : {}),
    ...(passed === false
      ? {
          missing: withs.filter((w) => !norm(text).includes(norm(w))),
          unwanted: withouts.filter((w) => norm(text).includes(norm(w))),
        }
      : {}),
  };
}

export interface GroupFigures {
  pages: number;
  /** Pages with a full expected text. */
  full: number;
  f1?: number;
  precision?: number;
  recall?: number;
  wordF1?: number;
  /** Pages with snippets, and the share of them that pass. */
  snippetPages: number;
  snippetRate?: number;
  cpuMs?: number;
  errors: number;
}

const mean = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : undefined);

export function figures(s: ScoreModule, outcomes: Outcome[]): GroupFigures {
  const full = outcomes.filter((o) => o.counts);
  const fourGram = full.length ? s.score(full.map((o) => o.counts!)) : undefined;
  const snippets = outcomes.filter((o) => o.snippets !== undefined);
  const cpu = outcomes.map((o) => o.cpuMs);
  return {
    pages: outcomes.length,
    full: full.length,
    ...(fourGram ?? {}),
    wordF1: mean(full.map((o) => o.word![2])),
    snippetPages: snippets.length,
    snippetRate: mean(snippets.map((o) => (o.snippets ? 1 : 0))),
    cpuMs: cpu.every((c) => c !== undefined) ? mean(cpu) : undefined,
    errors: outcomes.filter((o) => o.error).length,
  };
}

/** The groups a page belongs to: all, its corpus, its corpus and type, its corpus and language. */
export function groupsOf(page: PageReport): string[] {
  const groups = ['all', page.corpus];
  if (page.corpus === 'wcxb') groups.push(`${page.corpus} ${page.type}`);
  if (page.corpus !== 'readability') groups.push(`${page.corpus} lang=${page.lang}`);
  return groups;
}

const fmt = (x: number | undefined, digits = 3) =>
  x === undefined || Number.isNaN(x) ? '' : x.toFixed(digits);

/** The markdown table of every group: the service's figures beside Readability.js's. */
export function table(
  s: ScoreModule,
  pages: PageReport[],
): { rows: string; groups: Record<string, unknown> } {
  const byGroup = new Map<string, PageReport[]>();
  for (const page of pages) for (const g of groupsOf(page)) byGroup.set(g, [...(byGroup.get(g) ?? []), page]);
  const groups: Record<string, unknown> = {};
  const lines = [
    '| pages | n | 4-gram F1 (P / R) | Readability.js | word F1 | Readability.js | snippets pass | Readability.js | CPU ms/page | Readability.js | failed |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  // all, then each corpus with its page types and languages, the larger groups first.
  const rank = (g: string) => [
    g === 'all' ? -1 : CORPORA.indexOf(g.split(' ')[0] as CorpusName),
    g.includes(' ') ? (g.includes('lang=') ? 2 : 1) : 0,
  ];
  const ordered = [...byGroup].sort(([a, x], [b, y]) => {
    const [ra, rb] = [rank(a), rank(b)];
    return ra[0] - rb[0] || ra[1] - rb[1] || y.length - x.length;
  });
  for (const [group, members] of ordered) {
    // A language's group with a handful of pages says little: fold them into the corpus's figures.
    if (group.includes('lang=') && members.length < 5) continue;
    const svc = figures(
      s,
      members.map((p) => p.service),
    );
    const base = members.every((p) => p.baseline)
      ? figures(
          s,
          members.map((p) => p.baseline!),
        )
      : undefined;
    groups[group] = { service: svc, baseline: base };
    lines.push(
      `| ${group} | ${members.length} | ${svc.f1 !== undefined ? `${fmt(svc.f1)} (${fmt(svc.precision)} / ${fmt(svc.recall)})` : ''} | ${fmt(base?.f1)} | ${fmt(svc.wordF1)} | ${fmt(base?.wordF1)} | ${svc.snippetPages ? `${fmt(svc.snippetRate)} of ${svc.snippetPages}` : ''} | ${fmt(base?.snippetRate)} | ${fmt(svc.cpuMs, 1)} | ${fmt(base?.cpuMs, 1)} | ${svc.errors || ''} |`,
    );
  }
  return { rows: lines.join('\n'), groups };
}
