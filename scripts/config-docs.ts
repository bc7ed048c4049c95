// `npm run docs:config`: writes the README's Configuration table from the config schema
// (libs/config, each variable's @Doc), between the marker comments; a unit test fails while the two
// differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { documentedVariables } from '@app/config';

const START = '<!-- config:start (npm run docs:config writes this table from libs/config) -->';
const END = '<!-- config:end -->';

/** A pipe would end the cell. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

export function configTable(): string {
  return [
    '| variable | default | meaning |',
    '| --- | --- | --- |',
    ...documentedVariables().map((v) => `| \`${v.name}\` | ${cell(v.default)} | ${cell(v.meaning)} |`),
  ].join('\n');
}

/** The README with the table between the markers replaced by the schema's. */
export function withConfigTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${START} ... ${END}`);
  return `${readme.slice(0, start + START.length)}\n\n${configTable()}\n\n${readme.slice(end)}`;
}

export const README = resolve(__dirname, '..', 'README.md');

if (require.main === module) {
  writeFileSync(README, withConfigTable(readFileSync(README, 'utf8')));
}
