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

describe("a shop's grid of cards", () => {
  // Each card repeats the shop's buttons and badges: what a shopper clicks, not what the card says.
  it("drops each card's controls and badges, and keeps a sentence that names them", () => {
    const cards = Array.from(
      { length: 6 },
      (
        _,
        i,
      ) => `<div class="card"><a href="/p/${i}"><img src="/p${i}.jpg" alt=""><h3>Kettle model ${i}</h3></a>
        <span class="badge">Top rated</span><p>$${20 + i}.00</p><a href="/cart?add=${i}">Add to cart</a>
        <label><input type="checkbox"> Compare</label><a href="/p/${i}#quick">Quick view</a></div>`,
    ).join('');
    const { document } = parseHTML(`<!doctype html><html><body><main><h1>Kettles</h1>
      <p>Compare our kettles and add to cart the one you like: every kettle here is top rated by our buyers.</p>
      <div class="bar"><span>Sort by:</span><div>Price, low to high</div><div>Price, high to low</div></div>
      <div class="grid">${cards}</div></main></body></html>`);
    const text = (extractMainContent(document).textContent ?? '').replace(/\s+/g, ' ');
    expect(text).toContain('Kettle model 5');
    expect(text).toContain('$25.00');
    expect(text).toContain('every kettle here is top rated');
    for (const noise of ['Top rated $', 'Add to cart', 'Quick view', '00 Compare', 'Sort by', 'low to high'])
      expect(text).not.toContain(noise);
  });

  it("drops a band of buyers' reviews below the grid, named so, and keeps the cards", () => {
    const cards = Array.from(
      { length: 24 },
      (
        _,
        i,
      ) => `<div class="card"><a href="/p/${i}"><img src="/p${i}.jpg" alt=""><h3>Yoga mat model ${i}</h3></a>
        <p>A thick mat of natural rubber, ${i + 4} millimetres, for floors of every kind.</p></div>`,
    ).join('');
    const reviews = Array.from(
      { length: 6 },
      (
        _,
        i,
      ) => `<div class="slide"><p>buyerReview ${i}: I looked everywhere for a mat this size and this one is
        perfect, heavy enough to stay put when I jump around doing cardio.</p></div>`,
    ).join('');
    const { document } = parseHTML(`<!doctype html><html><body><main><h1>Exercise mats</h1>
      <p>${'Mats for a home gym, cut to size and shipped rolled. '.repeat(4)}</p><div class="grid">${cards}</div>
      <div class="reviews-slider">${reviews}</div></main></body></html>`);
    const text = extractMainContent(document).textContent ?? '';
    expect(text).toContain('Yoga mat model 23');
    expect(text).not.toContain('buyerReview');
  });
});
