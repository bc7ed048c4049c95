import type { OutputFormat } from '@app/queue-contracts';
import { buildContent, type ContentOptions } from './page-content';

const URL = 'https://news.test/section/story.html';

const ARTICLE = Array.from(
  { length: 6 },
  (_, i) =>
    `<p>Paragraph ${i} of the story, long enough to count as article text for the extraction, with a few more words in it.</p>`,
).join('');

const PAGE = `<!doctype html>
<html lang="de">
<head>
  <title>Story   title</title>
  <meta name="description" content="What the story is about">
  <link rel="canonical" href="/canonical/story">
  <script>var leakScript = 1;</script>
  <style>.leakStyle {}</style>
</head>
<body>
  <nav><a href="/">Home</a> <a href="/section/">Section</a> <a href="javascript:void(0)">Menu</a></nav>
  <main>
    <article>
      <h1>Story title</h1>
      ${ARTICLE}
      <p>See <a href="other.html#part">the other story</a>, <a href="/section/story.html#top">the top</a> and
      <a href="mailto:desk@news.test">the desk</a>. <img src="../img/photo.jpg" alt="Photo"></p>
      <table><tr><th>K</th><th>V</th></tr><tr><td>a</td><td>1</td></tr></table>
      <div hidden>hiddenText</div>
      <div style="display: none">invisibleText</div>
      <div popover id="install"><p>popoverText: tap Share, then Add to Home Screen.</p></div>
      <!-- commentText -->
    </article>
  </main>
  <aside class="ads">asideText</aside>
  <footer>footerText</footer>
</body>
</html>`;

const OPTIONS_LINKS: ContentOptions = { formats: ['links'], only_main_content: true };

const build = (options: Partial<ContentOptions> & { formats?: OutputFormat[] } = {}, body = PAGE) =>
  buildContent({
    body,
    kind: 'html',
    url: URL,
    options: { formats: ['markdown'], only_main_content: true, ...options },
  });

describe('buildContent', () => {
  it('reads the metadata, canonical URL resolved', () => {
    expect(build().metadata).toEqual({
      title: 'Story title',
      description: 'What the story is about',
      author: null,
      published_at: null,
      language: 'de',
      canonical_url: 'https://news.test/canonical/story',
      site_name: null,
    });
  });

  // The page's own headline, less the site's name, is the title heading: the content's heading, or
  // the page's h1 or h2 when Readability dropped it as repeating the title.
  it.each([
    ['the same title', '<title>Story title</title>', '<h1>Story title</h1>', 'Story title'],
    [
      'the title less the site name',
      '<title>Story title | News Site</title>',
      '<p>May 3</p><h2>Story title</h2>',
      'Story title',
    ],
    [
      'the site name first',
      '<title>News Site - Story title</title>',
      '<h1>Story   TITLE</h1>',
      'Story TITLE',
    ],
    [
      'a bullet before the site',
      '<title>Story title • News Site</title>',
      '<h1>Story title</h1>',
      'Story title',
    ],
    ['a forum after an at sign', '<title>Story title @ Forum</title>', '<h1>Story title</h1>', 'Story title'],
    [
      'underscores between its parts',
      '<title>Story title_Tech_News</title>',
      '<h1>Story title</h1>',
      'Story title',
    ],
    [
      'the title with curly quotes',
      '<title>Story title "now" - News Site</title>',
      '<h1>Story title “now”</h1>',
      'Story title “now”',
    ],
    [
      'a linked title and its permalink mark',
      '<title>Story title | News Site</title>',
      '<h3><a href="#contents">Story title</a><a class="headerlink" href="#story">¶</a></h3>',
      'Story title',
    ],
  ])('gives the title heading once when the content starts with %s', (_, head, start, heading) => {
    const body = `<html><head>${head}</head><body><article>${start}${ARTICLE}</article></body></html>`;
    const { markdown } = build({}, body);
    expect(markdown!.match(/^#+ .*story title/gim)).toHaveLength(1);
    expect(markdown!.startsWith(`# ${heading}\n\n`)).toBe(true);
    expect(markdown).toContain('Paragraph 5 of the story');
  });

  it("takes the h2 headline as the title heading when the h1 is the blog's", () => {
    const body = `<html><head><title>Story title | Blog</title></head><body><header><h1>Notes of a coder</h1></header><article><h2>Story title</h2>${ARTICLE}</article></body></html>`;
    const { markdown } = build({}, body);
    expect(markdown!.startsWith('# Story title\n\nParagraph 0')).toBe(true);
  });

  it.each([
    ['in the page banner', '<header><h1>My Blog</h1></header>', ''],
    ['named by the metadata', '<h1>My Blog</h1>', '<meta property="og:site_name" content="My blog">'],
  ])("does not take the site's own heading, %s, for the page's headline", (_, banner, meta) => {
    const body = `<html><head><title>Story title | My Blog</title>${meta}</head><body>${banner}<article>${ARTICLE}</article></body></html>`;
    expect(build({}, body).markdown!.startsWith('# Story title\n\n')).toBe(true);
  });

  it("leaves the site's name its metadata gives out of the title heading", () => {
    const head =
      '<title>Story title, told - News Site</title><meta property="og:site_name" content="News Site">';
    const body = `<html><head>${head}</head><body><article><h1>Another headline</h1>${ARTICLE}</article></body></html>`;
    expect(build({}, body).markdown!.startsWith('# Story title, told\n\n')).toBe(true);
  });

  it("leaves out of the title heading a part that names the URL's host", () => {
    const body = `<html><head><title>Story title, told | NEWS-TEST Daily</title></head><body><article><h1>Another headline</h1>${ARTICLE}</article></body></html>`;
    expect(build({}, body).markdown!.startsWith('# Story title, told\n\n')).toBe(true);
  });

  it('moves up an h1 that holds the title and its subtitle as the title heading', () => {
    const body = `<html><head><title>Story title</title></head><body><article><p>May 3</p><h1>Story title: what happened</h1>${ARTICLE}</article></body></html>`;
    const { markdown } = build({}, body);
    expect(markdown!.startsWith('# Story title: what happened\n\n')).toBe(true);
    expect(markdown!.match(/story title/gi)).toHaveLength(1);
  });

  it('keeps a heading that only shares words with the title', () => {
    const body = `<html><head><title>Story title</title></head><body><article><h2>Story title, part two</h2>${ARTICLE}</article></body></html>`;
    expect(build({}, body).markdown).toContain('## Story title, part two');
  });

  it('returns only the formats asked for', () => {
    expect(Object.keys(build({ formats: ['links'] })).sort()).toEqual(['links', 'metadata']);
    const all = build({ formats: ['markdown', 'html', 'raw_html', 'text', 'links'] });
    expect(Object.keys(all)).toEqual(['markdown', 'html', 'raw_html', 'text', 'links', 'metadata']);
    expect(all.raw_html).toBe(PAGE);
  });

  it('starts the markdown with the title once, and makes links and images absolute', () => {
    const { markdown } = build();
    expect(markdown!.startsWith('# Story title\n\nParagraph 0')).toBe(true);
    expect(markdown!.match(/# Story title/g)).toHaveLength(1);
    expect(markdown).toContain('[the other story](https://news.test/section/other.html#part)');
    expect(markdown).toContain('![Photo](https://news.test/img/photo.jpg)');
    expect(markdown).toContain('| K | V |');
  });

  it('keeps scripts, styles, hidden elements, comments and (with only_main_content) boilerplate out', () => {
    const { markdown, text, html } = build({ formats: ['markdown', 'text', 'html'] });
    for (const out of [markdown, text, html]) {
      for (const leak of [
        'leakScript',
        'leakStyle',
        'hiddenText',
        'invisibleText',
        'popoverText',
        'commentText',
        'asideText',
        'footerText',
      ]) {
        expect(out).not.toContain(leak);
      }
    }
  });

  it('reads collapsed tab panels and accordion sections, not a collapsed menu or other hidden elements', () => {
    const body = `<html><body><main><article><h1>Kettle</h1>${ARTICLE}
      <div role="tablist"><button role="tab" aria-controls="specs" aria-selected="false">Specs</button></div>
      <div id="specs" hidden><p>tabPanelText: 1.7 litres, 2200 W</p></div>
      <button aria-expanded="false" aria-controls="faq-1 faq-2">Questions</button>
      <div id="faq-1" style="display: none"><p>accordionText one</p></div>
      <div id="faq-2" hidden><p>accordionText two</p></div>
      <button aria-expanded="false" aria-controls="faq-3 faq-4">More</button>
      <div style="display:none;height:0"><div role="region" id="faq-3"><p>wrappedPanelText</p></div></div>
      <div style="display:none"><div id="faq-4"><p>panelText</p></div><p>besideText</p></div>
      <section role="tabpanel" hidden><p>roleTabpanelText</p></section>
      <div hidden>hiddenText</div>
    </article></main>
    <nav><button aria-expanded="false" aria-controls="menu">Menu</button><ul id="menu" hidden><li>menuText</li></ul></nav>
    </body></html>`;
    for (const only_main_content of [true, false]) {
      const { markdown } = build({ only_main_content }, body);
      for (const kept of [
        'tabPanelText',
        'accordionText one',
        'accordionText two',
        'roleTabpanelText',
        'wrappedPanelText',
      ])
        expect(markdown).toContain(kept);
      expect(markdown).not.toContain('hiddenText');
      expect(markdown).not.toContain('besideText');
      expect(markdown).not.toContain('menuText');
    }
  });

  it('resolves the links a page puts after </html> too', () => {
    const page = `${PAGE}<p>Trailing <a href="/after.html">link</a></p>`;
    const { links } = build({ formats: ['links'] }, page);
    expect(links).toContain('https://news.test/after.html');
  });

  it('keeps the whole body without only_main_content, still without scripts', () => {
    const { markdown } = build({ only_main_content: false });
    expect(markdown!.startsWith('# Story title\n\n[Home](https://news.test/)')).toBe(true);
    expect(markdown).toContain('footerText');
    expect(markdown).not.toContain('leakScript');
    expect(markdown).not.toContain('javascript:');
  });

  it('lists http(s) links once each, absolute and without fragments', () => {
    expect(build({ formats: ['links'] }).links).toEqual([
      'https://news.test/',
      'https://news.test/section/',
      'https://news.test/section/other.html',
      'https://news.test/section/story.html',
    ]);
  });

  it('takes the first maxLinks links, in document order', () => {
    const page = `<body>${Array.from({ length: 10 }, (_, i) => `<a href="/l/${i}">${i}</a>`).join('')}</body>`;
    const { links } = buildContent({
      body: page,
      kind: 'html',
      url: URL,
      maxLinks: 3,
      options: OPTIONS_LINKS,
    });
    expect(links).toEqual(['https://news.test/l/0', 'https://news.test/l/1', 'https://news.test/l/2']);
  });

  it('resolves against <base href> when the page has one', () => {
    const page = PAGE.replace('<head>', '<head><base href="https://cdn.news.test/root/">');
    expect(build({ formats: ['links'] }, page).links).toContain('https://cdn.news.test/root/other.html');
  });

  it('keeps only include_tags (overriding only_main_content) and removes exclude_tags', () => {
    expect(build({ include_tags: ['table', 'aside'] }).markdown).toBe(
      '# Story title\n\n| K | V |\n| --- | --- |\n| a | 1 |\n\nasideText',
    );
    const excluded = build({ exclude_tags: ['table', 'p'] }).markdown!;
    expect(excluded).not.toContain('Paragraph');
    expect(excluded).not.toContain('| K |');
  });

  it('ignores an invalid selector instead of failing the page', () => {
    expect(build({ exclude_tags: ['div[', 'table'] }).markdown).not.toContain('| K |');
  });

  it('falls back to <main> when Readability finds no article', () => {
    const page =
      '<html><head><title>T</title></head><body><nav>navText</nav><main><p>Short main text.</p></main></body></html>';
    expect(build({}, page).markdown).toBe('# T\n\nShort main text.');
  });

  it('keeps the <noscript> text of a page that shows nothing else (a crawler view), and only then', () => {
    const posts = `<noscript><div id="posts">${ARTICLE}</div></noscript>`;
    const scripted = build({ formats: ['text'] }, `<html><body><div id="app"></div>${posts}</body></html>`);
    expect(scripted.text).toContain('Paragraph 5 of the story');
    const shown = build(
      { formats: ['text'] },
      `<html><body><main>${ARTICLE}</main><noscript>noscriptText</noscript></body></html>`,
    );
    expect(shown.text).toContain('Paragraph 5 of the story');
    expect(shown.text).not.toContain('noscriptText');
  });

  it('gives text a line per block and a blank line between paragraphs', () => {
    const page =
      '<html><body><h2>Head</h2><p>One <b>two</b></p><ul><li>a</li><li>b</li></ul><pre>x\n  y</pre></body></html>';
    expect(build({ formats: ['text'], only_main_content: false }, page).text).toBe(
      'Head\n\nOne two\n\na\nb\n\nx\n  y',
    );
  });

  it('returns text and JSON documents as they are', () => {
    const text = buildContent({
      body: 'plain *text*',
      kind: 'text',
      url: URL,
      options: { formats: ['markdown', 'text', 'links'], only_main_content: true },
    });
    expect(text).toMatchObject({ markdown: 'plain *text*', text: 'plain *text*', links: [] });
    const json = buildContent({
      body: '{"a":"```"}',
      kind: 'json',
      url: URL,
      options: { formats: ['markdown'], only_main_content: true },
    });
    expect(json.markdown).toBe('````json\n{"a":"```"}\n````');
  });
});
