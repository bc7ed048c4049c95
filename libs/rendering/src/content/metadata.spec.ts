import { NO_METADATA } from '@app/queue-contracts';
import { parseDocument } from './html-document';
import { extractMetadata, isoDate } from './metadata';

const BASE = 'https://shop.test/a/page.html';
const page = (head: string, body = '') =>
  extractMetadata(
    parseDocument(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`),
    BASE,
  );
const jsonLd = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;

describe('extractMetadata', () => {
  it('gives every field, null, for a page that says nothing', () => {
    expect(page('')).toEqual(NO_METADATA);
  });

  it('reads an article from its JSON-LD (in a @graph), the site from its WebSite node', () => {
    const metadata = page(
      jsonLd({
        '@context': 'https://schema.org',
        '@graph': [
          { '@type': 'WebSite', name: 'Rooftop Weekly' },
          {
            '@type': 'NewsArticle',
            headline: 'Bees on the roof',
            description: 'How a city keeps bees',
            author: [{ '@type': 'Person', name: 'Ada Lovelace' }, { name: 'Charles Babbage' }],
            datePublished: '2024-03-14T09:30:00+01:00',
            inLanguage: 'en-GB',
          },
        ],
      }),
    );
    expect(metadata).toEqual({
      title: 'Bees on the roof',
      description: 'How a city keeps bees',
      author: 'Ada Lovelace, Charles Babbage',
      published_at: '2024-03-14T08:30:00.000Z',
      language: 'en-GB',
      canonical_url: null,
      site_name: 'Rooftop Weekly',
    });
  });

  it('reads OpenGraph and meta tags; <title>, <html lang> and the canonical link come first', () => {
    const metadata = extractMetadata(
      parseDocument(`<html lang="fr"><head><title>Le titre</title>
        <meta property="og:title" content="OG title"><meta property="og:description" content="OG text">
        <meta property="og:site_name" content="Le Site"><meta property="og:locale" content="de_DE">
        <meta name="AUTHOR" content="Marie Curie">
        <meta property="article:published_time" content="2023-11-02">
        <link rel="canonical" href="/a/canonical"></head><body></body></html>`),
      BASE,
    );
    expect(metadata).toEqual({
      title: 'Le titre',
      description: 'OG text',
      author: 'Marie Curie',
      published_at: '2023-11-02',
      language: 'fr',
      canonical_url: 'https://shop.test/a/canonical',
      site_name: 'Le Site',
    });
  });

  it('takes the language from og:locale when the document does not say', () => {
    expect(page('<meta property="og:locale" content="pt_BR">').language).toBe('pt-BR');
  });

  it('falls back to the visible byline: the name without "By", its date from <time>', () => {
    const metadata = page(
      '<title>T</title>',
      '<article><h1>T</h1><p class="byline">By Ada Fixture · <time datetime="2024-03-14">14 March</time></p></article>',
    );
    expect(metadata.author).toBe('Ada Fixture');
    expect(metadata.published_at).toBe('2024-03-14');
  });

  it('reads microdata: itemprop author and datePublished', () => {
    const metadata = page(
      '',
      '<div itemprop="author" itemscope><span itemprop="name">Grace Hopper</span></div><time itemprop="datePublished" datetime="2020-01-02T03:04:05Z">then</time>',
    );
    expect(metadata.author).toBe('Grace Hopper');
    expect(metadata.published_at).toBe('2020-01-02T03:04:05.000Z');
  });

  it('takes no URL for an author (article:author is often a profile link)', () => {
    expect(page('<meta property="article:author" content="https://social.test/ada">').author).toBeNull();
  });

  it('takes a product page: its name when there is no <title>, the publisher as the site', () => {
    const metadata = page(
      jsonLd([
        { '@type': 'BreadcrumbList', name: 'crumbs' },
        {
          '@type': 'Product',
          name: 'Hive frame',
          headline: 'Hive frame, pine',
          publisher: { name: 'Bee Shop' },
        },
      ]),
    );
    expect(metadata.title).toBe('Hive frame, pine');
    expect(metadata.site_name).toBe('Bee Shop');
  });

  it('skips broken, huge and absurd JSON-LD without failing the page', () => {
    const metadata = page(
      `<script type="application/ld+json">{broken</script>` +
        `<script type="application/ld+json">{"@type":"Article","headline":"${'x'.repeat(300_000)}"}</script>` +
        jsonLd({ '@type': 'Article', author: { name: { name: { name: { name: { name: 'deep' } } } } } }) +
        jsonLd(Array.from({ length: 10_000 }, () => [{ '@type': 'Thing' }])),
    );
    expect(metadata.title).toBeNull();
    expect(metadata.author).toBeNull();
  });
});

describe('isoDate', () => {
  it('keeps a date as a date and turns a date and time into UTC', () => {
    expect(isoDate('2024-02-29')).toBe('2024-02-29');
    expect(isoDate('2024-02-29 10:00:00+02:00')).toBe('2024-02-29T08:00:00.000Z');
    expect(isoDate('Thu, 14 Mar 2024 10:00:00 GMT')).toBe('2024-03-14T10:00:00.000Z');
  });

  it('is null for what is no date', () => {
    for (const value of ['', 'March', '5', 'yesterday', '2024-13-45', null])
      expect(isoDate(value)).toBeNull();
  });
});
