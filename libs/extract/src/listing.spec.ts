import { parseHTML } from 'linkedom';
import { extractMainContent } from './extract';

const TOPICS = ['chicken', 'salmon', 'vegetable', 'dessert', 'pork', 'tofu', 'beef', 'rice'];

// A row of recipe cards under its own line, classed apart from the other rows.
const row = (topic: string) =>
  `<div class="${topic}-row"><p>${topic} recipes for dinner</p><div class="carousel">${Array.from(
    { length: 6 },
    (_, i) =>
      `<article class="card"><a href="/${topic}/${i}"><h3>${topic} recipe number ${i} with a title</h3></a></article>`,
  ).join('')}</div></div>`;

describe('a page made of link-dense blocks', () => {
  // og:type says "article" on every page of many CMSs, a recipe index's too.
  it('is read whole, not as the article Readability finds in its intro', () => {
    const { document } = parseHTML(`<!doctype html><html><body><main><section><div class="intro">
      <p>${'I love a meal with crunch, and these recipes deliver it. '.repeat(7)}</p></div></section>
      ${TOPICS.map(row).join('')}</main></body></html>`);
    const text = extractMainContent(document, 'article').textContent ?? '';
    expect(text).toContain('I love a meal');
    for (const topic of TOPICS) expect(text).toContain(`${topic} recipe number 5`);
  });
});
