import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOSTILE_COLUMNS, hostileRow, type HostileOutcome } from '../support/hostile-cases';

/**
 * The suite's tables for docs/reliability.md: markdown rows appended per case to
 * RESILIENCE_REPORT_DIR (default: a folder in the system temp dir), one file per table.
 */
const DIR = process.env.RESILIENCE_REPORT_DIR ?? join(tmpdir(), 'scraper-resilience');

function appendRow(file: string, columns: string[], cells: string[]): void {
  mkdirSync(DIR, { recursive: true });
  const path = join(DIR, file);
  const escape = (cell: string) => cell.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  if (!existsSync(path))
    appendFileSync(path, `| ${columns.join(' | ')} |\n|${columns.map(() => ' --- |').join('')}\n`);
  appendFileSync(path, `| ${cells.map(escape).join(' | ')} |\n`);
}

export function recordFault(row: { fault: string; workload: string; before: string; after: string }): void {
  appendRow(
    'faults.md',
    ['fault', 'workload', 'before', 'after'],
    [row.fault, row.workload, row.before, row.after],
  );
}

export function recordAbuse(row: { group: string; input: string; answer: string }): void {
  appendRow('abuse.md', ['group', 'input', 'answer'], [row.group, row.input, row.answer]);
}

export function recordLoad(row: { what: string; figures: string }): void {
  appendRow('load.md', ['what', 'figures'], [row.what, row.figures]);
}

export function recordHostile(outcome: HostileOutcome): void {
  appendRow('hostile.md', HOSTILE_COLUMNS, hostileRow(outcome));
}
