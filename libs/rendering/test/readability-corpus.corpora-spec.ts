import { readFileSync } from 'node:fs';
import { SCRAPE_DEFAULTS, type EngineName } from '@app/queue-contracts';
import type { Rendering } from '@app/rendering';
import {
  htmlToPlainText,
  listCorpusPages,
  textSimilarity,
} from '../../../test/fixtures/corpus/readability-corpus';
import { startFixtureSite, type FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { startTestRendering } from './test-rendering';

// Mozilla Readability's own test pages: `only_main_content` should find what Readability's
// expected.html holds. Measured here: a mean of 1.00 (lowest page 0.98) through either engine,
// against 0.82 for the whole page without only_main_content; the floors sit between, so losing
// the article fails them and small shifts of a library do not (docs/decisions.md, "Rendering").
const HTTP_MEAN_FLOOR = 0.97;
const BROWSER_MEAN_FLOOR = 0.95;
const BROWSER_SAMPLE = 20;

let site: FixtureSite;
let rendering: Rendering;

beforeAll(async () => {
  site = await startFixtureSite();
  rendering = await startTestRendering({ RENDER_IDLE_MS: 200, RENDER_SETTLE_MAX_MS: 3000 });
});

afterAll(async () => {
  await rendering?.close();
  await site?.close();
});

const pages = listCorpusPages();

async function similarities(names: string[], engine: EngineName): Promise<Map<string, number>> {
  const scores = new Map<string, number>();
  for (const name of names) {
    const page = pages.find((p) => p.name === name)!;
    const result = await rendering.service.render({
      url: `${site.origin}/corpus/${name}/`,
      options: {
        ...SCRAPE_DEFAULTS,
        formats: ['text'],
        render: engine === 'http' ? 'http' : 'browser',
        engine: engine === 'http' ? 'playwright' : engine,
        timeout: 15_000,
      },
      isolationKey: 'corpus',
    });
    const expected = htmlToPlainText(readFileSync(page.expectedHtmlPath, 'utf8'));
    scores.set(name, result.error ? 0 : textSimilarity(result.text ?? '', expected));
  }
  return scores;
}

function report(label: string, scores: Map<string, number>): number {
  const values = [...scores.values()];
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  const worst = [...scores]
    .sort((a, b) => a[1] - b[1])
    .slice(0, 5)
    .map(([name, score]) => `${name} ${score.toFixed(2)}`);
  console.log(
    `readability corpus, ${label}: mean similarity ${mean.toFixed(3)} over ${values.length} pages; lowest: ${worst.join(', ')}`,
  );
  return mean;
}

describe('readability corpus (only_main_content)', () => {
  it('finds the article text through the http engine', async () => {
    expect(pages.length).toBeGreaterThan(100);
    const mean = report(
      'http',
      await similarities(
        pages.map((p) => p.name),
        'http',
      ),
    );
    expect(mean).toBeGreaterThanOrEqual(HTTP_MEAN_FLOOR);
  });

  it('finds the article text through the browser, for a sample', async () => {
    const step = Math.floor(pages.length / BROWSER_SAMPLE);
    const sample = pages.filter((_, i) => i % step === 0).slice(0, BROWSER_SAMPLE);
    const mean = report(
      'playwright',
      await similarities(
        sample.map((p) => p.name),
        'playwright',
      ),
    );
    expect(mean).toBeGreaterThanOrEqual(BROWSER_MEAN_FLOOR);
  });
});
