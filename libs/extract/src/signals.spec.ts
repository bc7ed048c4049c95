import { parseHTML } from 'linkedom';
import { extractMainContent } from './extract';
import { signalOf } from './signals';

const element = (html: string) =>
  parseHTML(`<!doctype html><html><body>${html}</body></html>`).document.body.firstElementChild!;

describe('signalOf', () => {
  it('reads a modifier inside a token as the end of its name', () => {
    // A section that has a header, a card whose read-more ad is hidden: neither is chrome.
    expect(signalOf(element('<div class="section-with-header"></div>'))).toBe('none');
    expect(signalOf(element('<div class="grid-item hide-read-more-ad"></div>'))).toBe('none');
    expect(signalOf(element('<div class="site-header"></div>'))).toBe('chrome-name');
    // A shop's bar of offers above the page.
    expect(signalOf(element('<div class="announcement-bar"></div>'))).toBe('chrome-name');
    // A listing's sort controls.
    expect(signalOf(element('<div class="products-sorting"></div>'))).toBe('chrome-name');
  });

  it("reads a search's results as content, its box as chrome", () => {
    expect(signalOf(element('<ul class="search-result-items"></ul>'))).toBe('content');
    expect(signalOf(element('<form class="search-form"></form>'))).toBe('chrome-name');
  });

  it("reads a framework's prefixed hiding class as hidden, not a breakpoint's", () => {
    for (const name of ['a-hidden', 'u-hidden', 'js-hidden', 'aok-hidden'])
      expect(signalOf(element(`<div class="box ${name}"></div>`))).toBe('hidden');
    for (const name of ['md-hidden', 'lazy-hidden', 'overflow-hidden'])
      expect(signalOf(element(`<div class="box ${name}"></div>`))).toBe('none');
  });

  it("reads the design systems' screen-reader-only classes as hidden", () => {
    for (const name of [
      'clipped',
      'screen-reader-only',
      'element-invisible',
      'u-visually-hidden',
      'assistive-text',
    ])
      expect(signalOf(element(`<span class="label ${name}">Seller's other items</span>`))).toBe('hidden');
  });

  it("reads a paragraph's link that opens a popup as the sentence's words, a popup as chrome", () => {
    const sentence = element(
      '<p>He held that <a class="popup" href="#">the easiest way is the best</a>.</p>',
    );
    expect(signalOf(sentence.firstElementChild!)).toBe('none');
    expect(signalOf(element('<div class="popup"><a href="#">Subscribe</a></div>'))).toBe('overlay');
    expect(signalOf(element('<li><a class="popup" href="#">Get points</a></li>').firstElementChild!)).toBe(
      'overlay',
    );
  });

  it("marks the page's own footer apart from a section's", () => {
    expect(signalOf(element('<footer></footer>'))).toBe('page-footer');
    expect(signalOf(element('<div role="contentinfo"></div>'))).toBe('page-footer');
    expect(signalOf(element('<article><footer></footer></article>').firstElementChild!)).toBe('chrome-tag');
  });
});

describe("the page's footer", () => {
  it('goes when it holds most of the text (every town served, a page of footnotes)', () => {
    const { document } = parseHTML(`<!doctype html><html><body><main><h1>Rentals</h1>
      <p>${'Find every rental in one place, delivered on time. '.repeat(20)}</p></main>
      <footer><p>We serve these towns:</p><p>${'Townname '.repeat(300)}</p></footer></body></html>`);
    const text = extractMainContent(document).textContent ?? '';
    expect(text).toContain('Find every rental');
    expect(text).not.toContain('Townname');
  });
});

describe('a menu made of links alone', () => {
  it('goes whatever it holds, as a <nav> does', () => {
    const languages = Array.from({ length: 200 }, (_, i) => `<a href="/l/${i}">Language${i}</a>`).join(' ');
    const repos = Array.from(
      { length: 5 },
      (_, i) =>
        `<article class="repo"><h2>repoName${i}</h2><p>A framework for building agents.</p></article>`,
    ).join('');
    const { document } = parseHTML(`<!doctype html><html><body><main><h1>Trending</h1>
      <details class="select-menu"><summary>Language</summary>${languages}</details>${repos}</main></body></html>`);
    const text = extractMainContent(document).textContent ?? '';
    expect(text).toContain('repoName4');
    expect(text).not.toContain('Language199');
  });
});

describe("a collection's head named a header", () => {
  it("stays with its title and description, while the site's header of links goes", () => {
    const cards = Array.from(
      { length: 12 },
      (_, i) =>
        `<li class="card"><a href="/p/${i}"><img src="/p/${i}.jpg" alt=""><h3>Gummy flavour ${i}</h3></a><p>Thirty gummies in a jar, ${i} dollars.</p></li>`,
    ).join('');
    const menu = Array.from({ length: 8 }, (_, i) => `<a href="/c/${i}">Category ${i}</a>`).join(' ');
    const { document } = parseHTML(`<!doctype html><html><body>
      <div class="site-header">${menu}</div>
      <section class="category-header"><h1>Gummies</h1><p>Tasty gummies made with care from the plants we grow.</p></section>
      <ul class="products">${cards}</ul>${'<p>More words about every gummy we make, one line after another.</p>'.repeat(4)}</body></html>`);
    const text = extractMainContent(document).textContent ?? '';
    expect(text).toContain('made with care');
    expect(text).toContain('Gummy flavour 11');
    expect(text).not.toContain('Category 7');
  });
});
