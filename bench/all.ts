// `npm run bench:all`: every bench:* script of package.json, one after the other on a quiet
// machine, then the resilience suite's long run (RESILIENCE_LONG=1), whose tables land in
// bench/results/resilience for docs/reliability.md. Not a CI step: it takes about an hour.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');
const scripts = Object.keys(
  (JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts,
).filter((name) => name.startsWith('bench:') && name !== 'bench:all');

const outcomes: string[] = [];
const run = (label: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
  const started = Date.now();
  console.log(`\n=== ${label} ===`);
  const { status } = spawnSync('npm', args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  outcomes.push(
    `${label}: ${status === 0 ? 'ok' : `exit ${status}`} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
};

for (const name of scripts) run(name, ['run', '-s', name]);
run('test:resilience (long)', ['run', '-s', 'test:resilience'], {
  RESILIENCE_LONG: '1',
  RESILIENCE_REPORT_DIR: resolve(root, 'bench/results/resilience'),
});
console.log(`\n${outcomes.join('\n')}`);
console.log('Resilience tables: bench/results/resilience/*.md');
process.exitCode = outcomes.every((o) => o.includes(': ok')) ? 0 : 1;
