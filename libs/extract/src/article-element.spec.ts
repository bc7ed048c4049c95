import { parseHTML } from 'linkedom';
import { removeChrome } from './boilerplate';
import { extractMainContent, readPageProfile } from './index';
import { measure } from './text-stats';

const sentence = (topic: string, i: number) =>
  `${topic} sentence ${i} carries enough words to read as real prose for the extractor to weigh.`;
const paragraphs = (topic: string, count: number) =>
  Array.from({ length: count }, (_, i) => `<p>${sentence(topic, i)} ${sentence(topic, i + 100)}</p>`).join(
    '',
  );

function extract(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`);
  return (extractMainContent(document, readPageProfile(document)).textContent ?? '').replace(/\s+/g, ' ');
}

/** Teasers of other stories, each a linked title, a short summary and a "more" link. */
const teasers = (count: number) =>
  `<div class="more-news">${Array.from(
    { length: count },
    (_, i) =>
      `<div class="teaser"><h3><a href="/story/${i}">otherStory ${i} has a longer linked title</a></h3><p>teaserText${i} a short summary of it <a href="/story/${i}">More</a></p></div>`,
  ).join('')}</div>`;

describe('a page without structured data that shows one article', () => {
  it('is that article when an <article> titled by an h1 sits among other things', () => {
    const text = extract(
      `<div class="page"><article><h1>The story</h1>${paragraphs('storyBody', 4)}</article>${teasers(12)}</div>`,
    );
    expect(text).toContain('storyBody sentence 3');
    expect(text).not.toContain('teaserText');
  });

  it('keeps a story opened in a dialog over a stream of others', () => {
    const stream = Array.from(
      { length: 4 },
      (_, i) =>
        `<li class="stream-item"><a href="/s/${i}">streamStory ${i}</a><p>${sentence(`streamText${i}`, i)}</p></li>`,
    ).join('');
    const text = extract(
      `<ul class="stream">${stream}</ul><div class="modal"><article><h1>The story</h1>${paragraphs('storyBody', 5)}</article></div>`,
    );
    expect(text).toContain('storyBody sentence 4');
  });
});

describe("the chrome's removal", () => {
  // Readability weighs the tree next: a story left an only child would be climbed out of.
  it('leaves an empty slot named as chrome, which shows nothing, and removes one that shows an ad', () => {
    const { document } = parseHTML(`<!doctype html><html><body><div class="wrap"><article><h1>Story</h1>
      ${paragraphs('storyBody', 2)}</article><div class="sponsor"></div>
      <div class="ad-slot"><img src="/ad.png"></div></div></body></html>`);
    removeChrome(document.body, measure(document.body).of, 'article');
    expect(document.querySelector('.sponsor')).not.toBeNull();
    expect(document.querySelector('.ad-slot')).toBeNull();
  });
});
