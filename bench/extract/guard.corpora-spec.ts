import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GUARD_FILE, type GuardRecord } from './guard';

// The regression guard of only_main_content: bench:extract's own code on its fixed sample of 30
// WCXB pages (bench/extract/guard.ts) must stay within TOLERANCE of the figures recorded in
// bench/extract-guard.json. A change that raises them records the new figures with
// `npm run bench:extract -- --sample guard --record`, so the guard follows the extractor up.
const TOLERANCE = 0.02;

/**
 * The bench runs in a process of its own, as `npm run bench:extract` does: score.mjs is an ES
 * module, which Node loads and jest's CommonJS runtime does not. The sources run under the same
 * swc require hook the content threads use when they are given TypeScript.
 */
function runBench(report: string): Promise<string> {
  const root = join(__dirname, '..', '..');
  const args = [
    '--require',
    join(root, 'libs/rendering/src/content-pool/ts-thread-loader.js'),
    join(root, 'bench/extract.bench.ts'),
    ...['--sample', 'guard', '--no-baseline', '--report', report],
  ];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0 ? done(output) : fail(new Error(`bench:extract exited ${code}:\n${output}`)),
    );
  });
}

describe('bench:extract regression guard', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'extract-guard-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the F1 of its 30 sample pages within 0.02 of the recorded figures', async () => {
    const recorded = JSON.parse(readFileSync(GUARD_FILE, 'utf8')) as GuardRecord;
    const output = await runBench(join(dir, 'report.json'));
    console.log(output);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      groups: { all: { service: { f1: number; wordF1: number; errors: number } } };
      pages: { key: string }[];
    };
    // Another sample (corpora or choice changed) has other figures: record them again.
    expect(report.pages.map((p) => p.key)).toEqual(recorded.pages);
    const { f1, wordF1, errors } = report.groups.all.service;
    expect(errors).toBe(0);
    expect(f1).toBeGreaterThanOrEqual(recorded.f1 - TOLERANCE);
    expect(wordF1).toBeGreaterThanOrEqual(recorded.wordF1 - TOLERANCE);
  }, 120_000);
});
