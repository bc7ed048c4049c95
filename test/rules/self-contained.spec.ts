import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, SPEC_FILE, repoFiles } from './repo-files';

// A clone holds only the repository: a file that sends its reader to design notes kept beside it
// (the names below) sends them nowhere. What such notes said that still holds is in docs/.
// The names are built so that this file does not match itself.
const FORBIDDEN = [['DESIGN', 'md'].join('.'), ['STYLE', 'md'].join('.'), ['shared', 'spec', ''].join('/')];

describe('the repository explains itself', () => {
  it('cites no document outside the repository (apps, libs, scripts, docs, README and the rest; specs aside)', () => {
    const mentions: string[] = [];
    for (const file of repoFiles(['.'])) {
      if (SPEC_FILE.test(file)) continue;
      // latin1: binary files (images) read without a decoding error.
      const text = readFileSync(join(ROOT, file), 'latin1');
      const found = FORBIDDEN.filter((name) => text.includes(name));
      if (found.length > 0) mentions.push(`${file}: ${found.join(', ')}`);
    }
    expect(mentions).toEqual([]);
  });
});
