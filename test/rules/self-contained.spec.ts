import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// A clone holds only the repository: a file that sends its reader to design notes kept beside it
// (the names below) sends them nowhere. What such notes said that still holds is in docs/.
// The names are built so that this file does not match itself.
const FORBIDDEN = [['DESIGN', 'md'].join('.'), ['STYLE', 'md'].join('.'), ['shared', 'spec', ''].join('/')];
const ROOT = join(__dirname, '..', '..');
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage']);
const SPEC_FILE = /\.(spec|int-spec|e2e-spec|resilience-spec)\.ts$/;

function* files(path: string): Generator<string> {
  if (statSync(path).isFile()) {
    yield path;
    return;
  }
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory() && SKIPPED_DIRS.has(entry.name)) continue;
    yield* files(join(path, entry.name));
  }
}

describe('the repository explains itself', () => {
  it('cites no document outside the repository (apps, libs, scripts, docs, README and the rest; specs aside)', () => {
    const mentions: string[] = [];
    for (const path of files(ROOT)) {
      if (SPEC_FILE.test(path)) continue;
      const text = readFileSync(path, 'latin1');
      const found = FORBIDDEN.filter((name) => text.includes(name));
      if (found.length > 0) mentions.push(`${relative(ROOT, path)}: ${found.join(', ')}`);
    }
    expect(mentions).toEqual([]);
  });
});
