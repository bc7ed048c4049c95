// `npm run bench:pdf`: what converting a PDF costs in the content threads. A generated text PDF
// (test/fixtures/pdf-builder.ts: a heading and two lines a page) goes through ContentPool as the
// worker converts it (pdf.js in the thread, formats markdown), one document at a time, after a
// warm-up. CPU is the whole process's (every thread), per PDF page. Figure in docs/benchmarks.md,
// "PDF documents".
// Options: --pages N (20, pages of the PDF), --docs N (50, conversions measured).
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { ContentPool } from '@app/rendering';
import { reportPdf } from '../test/fixtures/pdf-builder';

const { values } = parseArgs({
  options: { pages: { type: 'string', default: '20' }, docs: { type: 'string', default: '50' } },
});
const PAGES = Number(values.pages);
const DOCS = Number(values.docs);
const WARM_UP = 5;

async function main(): Promise<void> {
  const pdf = reportPdf(PAGES);
  const pool = new ContentPool({ CONTENT_THREADS: 1, CONTENT_HEAP_MB: 512, CONTENT_TIMEOUT_MS: 15_000 });
  const convert = async () => {
    const answer = await pool.pdf({
      bytes: pdf,
      url: 'http://127.0.0.1/report.pdf',
      options: { formats: ['markdown'], only_main_content: true },
    });
    if (!('content' in answer)) throw new Error(`not converted: ${JSON.stringify(answer)}`);
  };
  try {
    for (let i = 0; i < WARM_UP; i++) await convert();
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < DOCS; i++) await convert();
    const seconds = (performance.now() - started) / 1000;
    const { user, system } = process.cpuUsage(cpu);
    const pages = PAGES * DOCS;
    console.log(
      `${DOCS} conversions of a ${PAGES}-page PDF (${Math.round(pdf.length / 1024)} KiB), 1 thread`,
    );
    console.log(`pages/s ${(pages / seconds).toFixed(0)}`);
    console.log(`CPU ms/page ${((user + system) / 1000 / pages).toFixed(2)}`);
    console.log(`load average ${loadavg()[0].toFixed(2)}`);
  } finally {
    await pool.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
