// `npm run bench:content-scaling`: the content conversion (buildContent: parse, main content,
// markdown, text, links, html) of each class of hostile page (test/fixtures/hostile-content.ts) at
// sizes n, 2n and 4n, in this process, one after another. Linear work shows as time ratios near 2
// and 4; the `x4` column is the time at 4n over the time at n. Figures in docs/benchmarks.md,
// "Content scaling". Options: --only NAME (one class), --scale S (multiplies every n; 1).
import { parseArgs } from 'node:util';
import { buildContent } from '@app/rendering';
import { HOSTILE_CONTENT } from '../test/fixtures/hostile-content';

const { values } = parseArgs({
  options: { only: { type: 'string' }, scale: { type: 'string', default: '1' } },
});
const scale = Number(values.scale);

function convert(html: string): { ms: number; markdown: number; error?: string } {
  const started = performance.now();
  try {
    const content = buildContent({
      body: html,
      kind: 'html',
      url: 'http://127.0.0.1/page',
      options: { formats: ['markdown', 'text', 'links', 'html'], only_main_content: true },
    });
    return { ms: performance.now() - started, markdown: content.markdown?.length ?? 0 };
  } catch (err) {
    return { ms: performance.now() - started, markdown: 0, error: (err as Error).message };
  }
}

const pad = (value: string | number, width: number) => String(value).padStart(width);
console.log(`${'class'.padEnd(26)} ${pad('n', 9)} ${pad('KiB', 7)} ${pad('ms', 8)} ${pad('md KiB', 8)}   x4`);
for (const hostile of HOSTILE_CONTENT.filter((c) => !values.only || c.name === values.only)) {
  const times: number[] = [];
  for (const factor of [1, 2, 4]) {
    const n = Math.round(hostile.n * scale * factor);
    const html = hostile.html(n);
    convert(hostile.html(Math.round(n / 16))); // warm the code paths this class takes
    const { ms, markdown, error } = convert(html);
    times.push(ms);
    const ratio = factor === 4 ? (ms / times[0]).toFixed(1) : '';
    console.log(
      `${hostile.name.padEnd(26)} ${pad(n, 9)} ${pad((html.length / 1024).toFixed(0), 7)} ${pad(ms.toFixed(0), 8)} ${pad((markdown / 1024).toFixed(0), 8)} ${pad(ratio, 4)}${error ? `  ${error}` : ''}`,
    );
  }
}
