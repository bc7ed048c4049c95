// `npm run bench:extract`: how well only_main_content finds a page's main content, over the
// development corpora in CORPORA_DIR (bench/extract/corpora.ts), scored with their score.mjs (on
// the markdown's text: markdownToText's, without markdown's own syntax, as
// bench/extract/markdown-text.ts removes it), beside Readability.js on the same pages in the same
// run. The service's side runs as the worker does: the same ContentPool and page-content task, in
// its threads (or, with --api, a live service).
// Prints one table (per corpus, WCXB page type and language) and writes a per-page report (JSON,
// not committed) for digging into failures. Figures in docs/benchmarks.md, "Main content".
// Options: --corpus wcxb,trafilatura,readability (all) --types article,forum,... (WCXB's types)
//          --limit N (N pages spread evenly over the selection) --sample guard (the CI guard's 30)
//          --record (with --sample guard: write its figures to bench/extract-guard.json)
//          --no-baseline (skip Readability.js) --keep-output (the texts, in the report)
//          --threads N (content threads; the CPUs) --concurrency N (pages in flight; 1 gives each
//          page its own CPU time) --report PATH (bench/results/extract.json)
//          --api URL --key K [--render http|auto|browser]: score a live service through its API.
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../test/fixtures/fixture-paths';
import {
  CORPORA,
  type CorpusName,
  detectCharset,
  loadCorpora,
  pageLanguage,
  type BenchPage,
} from './extract/corpora';
import { apiExtractor, poolExtractor, readabilityText, type ServiceExtractor } from './extract/extractors';
import { GUARD_FILE, guardSample, type GuardRecord } from './extract/guard';
import { withoutMarkdownSyntax } from './extract/markdown-text';
import { loadScorer, scoreOutput, table, type PageReport } from './extract/scoring';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    types: { type: 'string' },
    limit: { type: 'string' },
    sample: { type: 'string' },
    record: { type: 'boolean', default: false },
    'no-baseline': { type: 'boolean', default: false },
    'keep-output': { type: 'boolean', default: false },
    threads: { type: 'string' },
    concurrency: { type: 'string', default: '1' },
    report: { type: 'string' },
    api: { type: 'string' },
    key: { type: 'string' },
    render: { type: 'string', default: 'http' },
  },
});

const THREADS = Number(values.threads ?? availableParallelism());
const CONCURRENCY = Number(values.concurrency);
const BASELINE = !values['no-baseline'];
const REPORT = resolve(values.report ?? join(repoRoot(), 'bench', 'results', 'extract.json'));

function selectPages(): BenchPage[] {
  if (values.sample === 'guard') return guardSample(loadCorpora(['wcxb']));
  if (values.sample) throw new Error(`unknown --sample ${values.sample} (only: guard)`);
  const corpora = (values.corpus?.split(',') ?? CORPORA) as CorpusName[];
  const unknown = corpora.filter((c) => !CORPORA.includes(c));
  if (unknown.length) throw new Error(`unknown --corpus ${unknown.join(',')} (${CORPORA.join(', ')})`);
  const types = values.types?.split(',');
  let pages = loadCorpora(corpora).filter((p) => !types || types.includes(p.type));
  const limit = Number(values.limit ?? pages.length);
  if (limit < pages.length)
    pages = Array.from({ length: limit }, (_, i) => pages[Math.floor((i * pages.length) / limit)]);
  return pages;
}

const cpuMs = ({ user, system }: NodeJS.CpuUsage) => (user + system) / 1000;

async function main(): Promise<void> {
  if (values.record && values.sample !== 'guard') throw new Error('--record goes with --sample guard');
  if (values.api && !values.key) throw new Error('--api needs --key');
  const scorer = await loadScorer();
  const pages = selectPages();
  const service: ServiceExtractor = values.api
    ? await apiExtractor(values.api, values.key!, values.render)
    : poolExtractor(THREADS);
  const timed = CONCURRENCY === 1 && !values.api;

  const runPage = async (page: BenchPage): Promise<PageReport> => {
    const bytes = page.bytes();
    const charset = detectCharset(bytes);
    const html = new TextDecoder(charset).decode(bytes);
    const expected = page.expected?.();
    const started = performance.now();
    const cpu = timed ? process.cpuUsage() : undefined;
    const extraction = await service.extract(page.url, html, bytes, charset);
    const serviceCpu = cpu && cpuMs(process.cpuUsage(cpu));
    const serviceWall = performance.now() - started;
    const text =
      'markdown' in extraction ? withoutMarkdownSyntax(scorer.markdownToText(extraction.markdown)) : '';
    const report: PageReport = {
      key: page.key,
      corpus: page.corpus,
      type: page.type,
      lang: pageLanguage(html),
      charset,
      service: {
        ...scoreOutput(scorer, text, expected, page.with, page.without),
        ...('error' in extraction ? { error: extraction.error } : {}),
        ...(serviceCpu !== undefined ? { cpuMs: serviceCpu } : {}),
        wallMs: serviceWall,
        ...(values['keep-output'] ? { output: text } : {}),
      },
    };
    if (BASELINE) {
      const mainCpu = process.threadCpuUsage();
      const at = performance.now();
      const baseline = readabilityText(html);
      report.baseline = {
        ...scoreOutput(scorer, baseline, expected, page.with, page.without),
        cpuMs: cpuMs(process.threadCpuUsage(mainCpu)),
        wallMs: performance.now() - at,
        ...(values['keep-output'] ? { output: baseline } : {}),
      };
    }
    return report;
  };

  // Both sides load and compile their code on their first pages: those are not measured.
  for (const page of pages.slice(0, 3)) await runPage(page);

  const reports: PageReport[] = new Array(pages.length);
  const processCpu = process.cpuUsage();
  const mainCpu = process.threadCpuUsage();
  const started = performance.now();
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < pages.length) {
        const at = next++;
        reports[at] = await runPage(pages[at]);
        if (++done % 100 === 0) console.error(`${done}/${pages.length} pages`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const mainMs = cpuMs(process.threadCpuUsage(mainCpu));
  // Everything but this thread's work (reading pages, Readability.js, scoring): the content threads.
  const serviceCpuPerPage = (cpuMs(process.cpuUsage(processCpu)) - mainMs) / pages.length;
  await service.close();

  const peakRssMiB = process.resourceUsage().maxRSS / 1024;
  const commit = (() => {
    try {
      return execSync('git rev-parse --short HEAD', { cwd: repoRoot(), encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  })();
  const { rows, groups } = table(scorer, reports);
  const command = `bench:extract ${process.argv.slice(2).join(' ')}`.trim();
  console.log(
    `${command}: ${pages.length} pages, commit ${commit}, ${values.api ? `API ${values.api}` : `${THREADS} content threads`}, ${CONCURRENCY} in flight, ${seconds.toFixed(0)} s\n`,
  );
  console.log(rows);
  if (!values.api)
    console.log(
      `\nservice CPU ms/page (content threads, whole run): ${serviceCpuPerPage.toFixed(1)}; peak RSS of the bench process: ${peakRssMiB.toFixed(0)} MiB`,
    );
  const meta = {
    command,
    commit,
    threads: THREADS,
    concurrency: CONCURRENCY,
    seconds,
    serviceCpuPerPage,
    peakRssMiB,
  };
  mkdirSync(dirname(REPORT), { recursive: true });
  writeFileSync(REPORT, JSON.stringify({ ...meta, groups, pages: reports }, null, 1));
  console.log(`per-page report: ${REPORT}`);

  if (values.record) {
    const all = (groups.all as { service: { f1: number; wordF1: number } }).service;
    const record: GuardRecord = {
      command: 'npm run bench:extract -- --sample guard --record',
      commit,
      pages: pages.map((p) => p.key),
      f1: Number(all.f1.toFixed(4)),
      wordF1: Number(all.wordF1.toFixed(4)),
    };
    writeFileSync(GUARD_FILE, `${JSON.stringify(record, null, 2)}\n`);
    console.log(`recorded in ${GUARD_FILE}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
