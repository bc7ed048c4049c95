// The development corpora of bench:extract, read from CORPORA_DIR (relative to the repository; by
// default ../shared/corpora beside the clone, as in CI): WCXB's dev split, trafilatura's evaluation
// set and Mozilla Readability's test pages. They stay outside the repository: third-party pages.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import chardet from 'chardet';
import { htmlToPlainText, listCorpusPages } from '../../test/fixtures/corpus/readability-corpus';
import { repoRoot } from '../../test/fixtures/fixture-paths';

export const CORPORA = ['wcxb', 'trafilatura', 'readability'] as const;
export type CorpusName = (typeof CORPORA)[number];

export interface BenchPage {
  /** `<corpus>/<id>`: the page's key in reports and in the guard's sample. */
  key: string;
  corpus: CorpusName;
  /** WCXB's page type; `article` for Readability's pages, `mixed` for trafilatura's. */
  type: string;
  /** The page's URL as saved: relative references resolve against it (it is never fetched). */
  url: string;
  /** The saved bytes, read when the page's turn comes. */
  bytes: () => Buffer;
  /** The full expected text, when the corpus has one (the 4-gram and word F1 need it). */
  expected?: () => string;
  with: string[];
  without: string[];
}

export function corporaDir(): string {
  return resolve(repoRoot(), process.env.CORPORA_DIR ?? '../shared/corpora');
}

const gunzipped = (path: string) => () => gunzipSync(readFileSync(path));

interface WcxbTruth {
  url: string;
  _internal?: { page_type?: { primary?: string } };
  ground_truth: { main_content?: string | null; with?: string[]; without?: string[] };
}

function wcxbPages(dir: string): BenchPage[] {
  const base = join(dir, 'wcxb-dev');
  const types = (
    JSON.parse(readFileSync(join(base, 'metadata.json'), 'utf8')) as {
      files: Record<string, { page_type: string }>;
    }
  ).files;
  return readdirSync(join(base, 'html'))
    .filter((name) => name.endsWith('.html.gz'))
    .sort()
    .map((name) => {
      const id = name.slice(0, -'.html.gz'.length);
      const truth = JSON.parse(readFileSync(join(base, 'ground-truth', `${id}.json`), 'utf8')) as WcxbTruth;
      const main = truth.ground_truth.main_content;
      return {
        key: `wcxb/${id}`,
        corpus: 'wcxb' as const,
        // metadata.json lists most pages; the rest carry their type in the ground truth.
        type: types[id]?.page_type ?? truth._internal?.page_type?.primary ?? 'unknown',
        url: truth.url,
        bytes: gunzipped(join(base, 'html', name)),
        // 21 pages have no main_content: they count for the snippets only.
        ...(main ? { expected: () => main } : {}),
        with: truth.ground_truth.with ?? [],
        without: truth.ground_truth.without ?? [],
      };
    });
}

function trafilaturaPages(dir: string): BenchPage[] {
  const base = join(dir, 'trafilatura-eval');
  return readFileSync(join(base, 'manifest.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const entry = JSON.parse(line) as { url: string; html: string; with?: string[]; without?: string[] };
      return {
        key: `trafilatura/${entry.html.replace(/^(cache|eval)\//, '').replace(/\.html$/, '')}`,
        corpus: 'trafilatura' as const,
        type: 'mixed',
        url: entry.url,
        bytes: gunzipped(join(base, `${entry.html}.gz`)),
        with: entry.with ?? [],
        without: entry.without ?? [],
      };
    });
}

function readabilityPages(): BenchPage[] {
  return listCorpusPages().map((page) => ({
    key: `readability/${page.name}`,
    corpus: 'readability' as const,
    type: 'article',
    url: `http://readability.test/${page.name}/`,
    bytes: () => readFileSync(page.sourcePath),
    expected: () => htmlToPlainText(readFileSync(page.expectedHtmlPath, 'utf8')),
    with: [],
    without: [],
  }));
}

/** Every page of the corpora asked for, in a fixed order. */
export function loadCorpora(corpora: readonly CorpusName[] = CORPORA): BenchPage[] {
  const dir = corporaDir();
  if (!existsSync(dir)) throw new Error(`no corpora at ${dir}: set CORPORA_DIR`);
  return [
    ...(corpora.includes('wcxb') ? wcxbPages(dir) : []),
    ...(corpora.includes('trafilatura') ? trafilaturaPages(dir) : []),
    // listCorpusPages reads CORPORA_DIR itself, relative to the repository as here.
    ...(corpora.includes('readability') ? readabilityPages() : []),
  ];
}

function declaredCharset(head: string): string | undefined {
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1]?.toLowerCase();
}

const decodes = (label: string) => {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
};

/**
 * The page's charset: UTF-8 when the bytes are valid UTF-8 (several pages declare another one
 * wrongly, or none), else what the page declares unless that is UTF-8, else chardet's guess.
 */
export function detectCharset(bytes: Buffer): string {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return 'utf-8';
  } catch {
    const declared = declaredCharset(bytes.subarray(0, 4096).toString('latin1'));
    if (declared && !declared.startsWith('utf') && decodes(declared)) return declared;
    const guessed = chardet.detect(bytes)?.toLowerCase();
    return guessed && decodes(guessed) ? guessed : 'windows-1252';
  }
}

/** The page's language: the primary subtag of <html lang>, `?` without one. */
export function pageLanguage(html: string): string {
  return /<html[^>]*?\slang\s*=\s*["']?([a-z]{2,3})/i.exec(html.slice(0, 20_000))?.[1]?.toLowerCase() ?? '?';
}
