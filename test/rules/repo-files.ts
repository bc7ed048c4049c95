import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** What the repository rules read: files as the repository holds them, by repository-relative path. */
export const ROOT = join(__dirname, '..', '..');

/** Test files of every suite; the rules allow them what they forbid in code. */
export const SPEC_FILE = /\.(spec|int-spec|e2e-spec|resilience-spec|corpora-spec|container-spec)\.ts$/;

/** Installs and build output, not the repository's own files. */
const NOT_OURS = new Set(['node_modules', 'dist', '.git', 'coverage']);

/**
 * '/'-separated paths of the files under each of `tops` ('.' for the whole tree), relative to the
 * root. `skip` names folders not descended into; a rule that looks for copied-in dependencies
 * passes an empty set to see them.
 */
export function repoFiles(tops: string[], skip: ReadonlySet<string> = NOT_OURS): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = dir === '.' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) return skip.has(entry.name) ? [] : walk(path);
      return entry.isFile() ? [path] : [];
    });
  return tops.flatMap(walk);
}

export const readRepoFile = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
