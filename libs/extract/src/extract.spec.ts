import { parseHTML } from 'linkedom';
import { extractMainContent, readPageProfile } from './index';

const sentence = (topic: string, i: number) =>
  `${topic} sentence ${i} carries enough words to read as real prose for the extractor to weigh.`;
const paragraphs = (topic: string, count: number) =>
  Array.from({ length: count }, (_, i) => `<p>${sentence(topic, i)} ${sentence(topic, i + 100)}</p>`).join(
    '',
  );

const NAV = `<header><nav><a href="/">Home</a> <a href="/a">Products</a> <a href="/b">Pricing</a> <a href="/c">Blog</a></nav></header>`;
const FOOTER = `<footer><a href="/terms">Terms of use</a> <a href="/privacy">Privacy policy</a> footerText</footer>`;
const COOKIES = `<div id="cookie-consent"><p>${sentence('cookieBanner', 1).repeat(8)}</p><button>Accept</button></div>`;

function extract(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`);
  const kind = readPageProfile(document);
  return (extractMainContent(document, kind).textContent ?? '').replace(/\s+/g, ' ');
}

describe('extractMainContent', () => {
  it('keeps an article and drops its navigation, share bar, related links and footer', () => {
    const text = extract(`${NAV}${COOKIES}<main><article><h1>Title</h1>${paragraphs('articleBody', 8)}
      <div class="share-bar"><a href="/s1">Share on X</a> <a href="/s2">Share by mail</a></div>
      <ul class="related"><li><a href="/r1">relatedStory one</a></li><li><a href="/r2">relatedStory two</a></li></ul>
      </article></main><aside>${paragraphs('sidebarText', 2)}</aside>${FOOTER}`);
    expect(text).toContain('articleBody sentence 7');
    for (const noise of [
      'Products',
      'cookieBanner',
      'Share on X',
      'relatedStory',
      'sidebarText',
      'footerText',
    ])
      expect(text).not.toContain(noise);
  });

  // Sphinx's section titles link back to the table of contents: their text is the heading's.
  it("keeps a heading's text whatever its link's class names", () => {
    const section = (title: string, i: number) =>
      `<h2><a class="toc-backref" href="#id${i}">${title}</a><a class="headerlink" href="#s${i}">¶</a></h2>${paragraphs(title.replace(/ /g, ''), 3)}`;
    const text = extract(
      `${NAV}<div class="body">${section('Setting up', 1)}${section('Sharing history', 2)}</div>${FOOTER}`,
    );
    expect(text).toContain('Setting up');
    expect(text).toContain('Sharing history');
  });

  it('keeps every post of a forum thread, by many authors, without their signatures and profiles', () => {
    const posts = Array.from(
      { length: 6 },
      (_, i) => `<div class="post"><div class="author"><a href="/u/${i}">user${i}</a></div>
        <div class="postprofile">Posts: 40${i} Joined: 2021</div>
        <div class="message">${sentence(`forumPost${i}`, i)}</div><div class="signature">mySignature ${i}</div></div>`,
    ).join('');
    const text = extract(`${NAV}<div class="thread"><h1>Question about sockets</h1>${posts}</div>${FOOTER}`);
    for (let i = 0; i < 6; i++) expect(text).toContain(`forumPost${i} sentence`);
    // What the forum shows of each author under each post is not the post.
    for (const noise of ['footerText', 'mySignature', 'Joined:']) expect(text).not.toContain(noise);
  });

  it("drops a list of links among an article's paragraphs from Readability's pick too", () => {
    const text = extract(`${NAV}<main><article><h1>Title</h1>${paragraphs('articleBody', 3)}
      <ul><li><a href="/news">tagLink News</a></li><li><a href="/politik">tagLink Politik</a></li><li><a href="/sport">tagLink Sport</a></li></ul>
      ${paragraphs('moreBody', 8)}</article></main>${FOOTER}`);
    expect(text).toContain('moreBody sentence 7');
    expect(text).not.toContain('tagLink');
  });

  it('keeps a product page: name, price, description and specs, not the menus', () => {
    const text =
      extract(`${NAV}<div class="product-page"><h1>Steel kettle</h1><span class="price">$49.00</span>
      <div class="description">${paragraphs('kettleDescription', 2)}</div>
      <table><tr><th>Capacity</th><td>1.7 l</td></tr><tr><th>Power</th><td>2200 W</td></tr></table>
      </div>${FOOTER}`);
    for (const part of ['Steel kettle', '$49.00', 'kettleDescription sentence 1', 'Capacity', '2200 W'])
      expect(text).toContain(part);
    expect(text).not.toContain('Pricing');
  });

  it('keeps the repeated cards of a listing, not its filter panel', () => {
    const cards = Array.from(
      { length: 12 },
      (_, i) =>
        `<li class="card"><a href="/item/${i}"><h3>listingCard ${i} title</h3></a><p>Card ${i} summary.</p></li>`,
    ).join('');
    const text = extract(`${NAV}<div class="filters"><a href="/?c=red">Red</a> <a href="/?c=blue">Blue</a>
      <a href="/?s=1">Size 1</a> <a href="/?s=2">Size 2</a></div><ul class="grid">${cards}</ul>${FOOTER}`);
    for (let i = 0; i < 12; i++) expect(text).toContain(`listingCard ${i} title`);
    expect(text).not.toContain('Size 2');
  });

  it('keeps documentation with its code block, not its sidebar or table of contents', () => {
    const text = extract(`${NAV}<div class="sidebar"><a href="/d/1">Install</a> <a href="/d/2">Configure</a>
      <a href="/d/3">Deploy</a></div><div class="doc-body"><h1>Configure</h1>${paragraphs('docText', 3)}
      <pre><code class="language-ts">const answer = configure();</code></pre>${paragraphs('docMore', 2)}</div>
      <div class="toc"><a href="#a">On this page</a> <a href="#b">Options</a></div>${FOOTER}`);
    expect(text).toContain('const answer = configure();');
    expect(text).toContain('docMore sentence 1');
    for (const noise of ['Deploy', 'On this page']) expect(text).not.toContain(noise);
  });

  it('keeps every section of a landing page', () => {
    const sections = ['hero', 'features', 'pricing', 'testimonials']
      .map(
        (name) => `<section class="${name}"><h2>${name}Heading</h2>${paragraphs(`${name}Text`, 1)}</section>`,
      )
      .join('');
    const text = extract(`${NAV}<div class="page">${sections}</div>${FOOTER}`);
    for (const name of ['hero', 'features', 'pricing', 'testimonials'])
      expect(text).toContain(`${name}Text sentence 0`);
    expect(text).not.toContain('footerText');
  });

  it("keeps each section's own header, not the page's", () => {
    const text = extract(`<header><p>${sentence('pageBanner', 1)}</p></header>
      <main><section><header><h2>sectionHeading</h2><p>${sentence('sectionLead', 1)}</p></header>${paragraphs('sectionBody', 2)}</section></main>${FOOTER}`);
    for (const part of ['sectionHeading', 'sectionLead sentence 1', 'sectionBody sentence 1'])
      expect(text).toContain(part);
    for (const noise of ['pageBanner', 'footerText']) expect(text).not.toContain(noise);
  });

  it("drops a blog's few comments, but keeps them when they are most of the page", () => {
    const comments = (count: number) =>
      `<div class="comments">${Array.from(
        { length: count },
        (_, i) =>
          `<div class="comment"><a href="/u/${i}">reader${i}</a><p>${sentence(`readerComment${i}`, i)}</p></div>`,
      ).join('')}</div>`;
    const blog = extract(
      `${NAV}<div class="blog"><h1>Post</h1>${paragraphs('blogPost', 8)}</div>${comments(2)}`,
    );
    expect(blog).toContain('blogPost sentence 7');
    expect(blog).not.toContain('readerComment');
    const thread = extract(
      `${NAV}<div class="story"><h1>A link</h1><p>${sentence('storyText', 1)}</p></div>${comments(8)}`,
    );
    for (let i = 0; i < 8; i++) expect(thread).toContain(`readerComment${i} sentence`);
  });

  it('reads what the page says it is from JSON-LD and OpenGraph', () => {
    const kind = (head: string) =>
      readPageProfile(parseHTML(`<html><head>${head}</head><body></body></html>`).document);
    expect(kind('<script type="application/ld+json">{"@graph":[{"@type":"NewsArticle"}]}</script>')).toBe(
      'article',
    );
    expect(kind('<meta property="og:type" content="product">')).toBe('product');
    expect(kind('<script type="application/ld+json">{"@type":["QAPage"]}</script>')).toBe('discussion');
    expect(kind('<script type="application/ld+json">{not json</script>')).toBe('other');
  });
});
