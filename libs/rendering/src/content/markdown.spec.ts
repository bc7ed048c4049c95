import { parseDocument } from './html-document';
import { elementToMarkdown, titleHeading } from './markdown';

const markdownOf = (body: string) =>
  elementToMarkdown(parseDocument(`<!doctype html><html><body>${body}</body></html>`).body);

describe('elementToMarkdown', () => {
  it('converts a table with a heading row to a GFM table', () => {
    const md = markdownOf(
      '<table><thead><tr><th>Name</th><th align="right">Qty</th></tr></thead>' +
        '<tbody><tr><td>Smoker</td><td>1</td></tr><tr><td>Veil</td><td>2</td></tr></tbody></table>',
    );
    expect(md).toBe('| Name | Qty |\n| --- | --: |\n| Smoker | 1 |\n| Veil | 2 |');
  });

  it('makes the first row the heading of a table without one, instead of leaving HTML', () => {
    const md = markdownOf(
      '<table><tr><td>Year</td><td>Count</td></tr><tr><td>2024</td><td>7</td></tr></table>',
    );
    expect(md).toBe('| Year | Count |\n| --- | --- |\n| 2024 | 7 |');
    expect(md).not.toContain('<t');
  });

  it('pads colspans and short rows, escapes pipes and keeps cells on one line', () => {
    const md = markdownOf(
      '<table><tr><th>A</th><th>B</th><th>C</th></tr>' +
        '<tr><td colspan="2">wide</td><td>x | y</td></tr><tr><td><p>one</p><p>two</p></td></tr></table>',
    );
    expect(md).toBe('| A | B | C |\n| --- | --- | --- |\n| wide |  | x \\| y |\n| one two |  |  |');
  });

  it('puts the caption before the table', () => {
    const md = markdownOf(
      '<table><caption>Prices</caption><tr><th>Item</th><th>EUR</th></tr><tr><td>Tool</td><td>12</td></tr></table>',
    );
    expect(md).toBe('Prices\n\n| Item | EUR |\n| --- | --- |\n| Tool | 12 |');
  });

  it('unwraps layout tables: nested tables and single rows or columns', () => {
    const md = markdownOf(
      '<table><tr><td><p>Sidebar</p></td><td><table><tr><th>K</th><th>V</th></tr><tr><td>a</td><td>1</td></tr></table></td></tr></table>' +
        '<table><tr><td>Only</td></tr><tr><td>one column</td></tr></table>',
    );
    expect(md).toBe('Sidebar\n\n| K | V |\n| --- | --- |\n| a | 1 |\n\nOnly\n\none column');
  });

  it.each([
    ['<pre><code class="language-python">x = 1</code></pre>', 'python'],
    ['<pre class="lang-js"><code>x = 1</code></pre>', 'js'],
    ['<div class="highlight highlight-source-ruby"><pre>x = 1</pre></div>', 'ruby'],
    ['<pre class="brush: sql">x = 1</pre>', 'sql'],
    ['<pre data-lang="go"><code>x = 1</code></pre>', 'go'],
    ['<pre>x = 1</pre>', ''],
  ])('fences %s with its language', (html, language) => {
    expect(markdownOf(html)).toBe(`\`\`\`${language}\nx = 1\n\`\`\``);
  });

  it('keeps code text verbatim: highlighting spans dropped, <br> as newlines, fences longer than any inside', () => {
    const md = markdownOf(
      '<pre><code class="language-md"><span class="k">#</span> Title<br>```js<br>a_b * c<br>```</code></pre>',
    );
    expect(md).toBe('````md\n# Title\n```js\na_b * c\n```\n````');
  });

  it('indents nested lists under their items', () => {
    const md = markdownOf(
      '<ol><li>First<ul><li>Inner</li><li>Second inner</li></ul></li><li>Second</li></ol>',
    );
    expect(md).toMatch(/^1\. +First\n {4}- +Inner\n {4}- +Second inner\n2\. +Second$/);
  });

  it('converts strikethrough, emphasis and inline code', () => {
    expect(markdownOf('<p><del>old</del> <em>new</em> <strong>bold</strong> <code>a_b</code></p>')).toBe(
      '~old~ *new* **bold** `a_b`',
    );
  });

  it('never lets script, style, noscript or template text through', () => {
    const md = markdownOf(
      '<p>Visible</p><script>scriptText()</script><style>.styleText{}</style>' +
        '<noscript>noscriptText</noscript><template><p>templateText</p></template>',
    );
    expect(md).toBe('Visible');
  });

  it('drops images inlined as data: URIs and links without text', () => {
    const md = markdownOf(
      '<p><img src="data:image/png;base64,AAAA" alt="inline"><a href="https://x.test/a"></a>' +
        '<a href="https://x.test/b"><img src="https://x.test/b.png" alt="pic"></a> text</p>',
    );
    expect(md).toBe('[![pic](https://x.test/b.png)](https://x.test/b) text');
  });

  it('percent-encodes parentheses and spaces in link and image URLs, keeping titles as written', () => {
    const md = markdownOf(
      '<p><a href="https://x.test/wiki/Bee_(insect)" title="Bee (insect)">Bee</a> ' +
        '<img src="https://x.test/img/hive (1).jpg" alt="Hive" title="A hive (old)"></p>',
    );
    expect(md).toBe(
      '[Bee](https://x.test/wiki/Bee_%28insect%29 "Bee (insect)") ' +
        '![Hive](https://x.test/img/hive%20%281%29.jpg "A hive (old)")',
    );
  });
});

describe('elementToMarkdown: structure', () => {
  it('keeps headings by level, blockquotes and their nesting', () => {
    expect(
      markdownOf(
        '<h2>Part</h2><h3>Sub</h3><blockquote><p>Said</p><blockquote>Inner</blockquote></blockquote>',
      ),
    ).toBe('## Part\n\n### Sub\n\n> Said\n>\n> > Inner');
  });

  it('keeps images with their alt text, an image with only a srcset by its first candidate', () => {
    expect(markdownOf('<p><img src="https://x.test/a.jpg" alt="A hive"></p>')).toBe(
      '![A hive](https://x.test/a.jpg)',
    );
    expect(markdownOf('<img srcset="https://x.test/s.jpg 1x, https://x.test/l.jpg 2x" alt="S">')).toBe(
      '![S](https://x.test/s.jpg)',
    );
  });

  it.each([
    ['width and height of 1', '<img src="https://x.test/a.gif" width="1" height="1" alt="">'],
    ['a 0px style', '<img src="https://x.test/a.gif" style="width: 0px; height:0">'],
    ['a pixel endpoint', '<img src="https://stats.test/pixel?id=7&amp;ev=view">'],
    ['a collector endpoint', '<img src="https://x.test/g/collect?v=1&amp;t=pageview">'],
    ['a beacon script', '<img src="https://x.test/beacon.php?u=1">'],
    ['a spacer image', '<img src="https://x.test/img/spacer.gif" alt="">'],
    ['a 1x1 image', '<img src="https://x.test/t/1x1.png">'],
  ])('drops a tracking pixel: %s (and the link it leaves empty)', (_, img) => {
    expect(markdownOf(`<p>Before <a href="https://x.test/c">${img}</a>after</p>`)).toBe('Before after');
  });

  it('keeps real images whose address mentions pixels or tracks', () => {
    const md = markdownOf(
      '<img src="https://x.test/pixel/pixel-8-pro.jpg" alt="Phone"><img src="https://x.test/track/12/cover.jpg" alt="Cover" width="300">',
    );
    expect(md).toBe(
      '![Phone](https://x.test/pixel/pixel-8-pro.jpg)![Cover](https://x.test/track/12/cover.jpg)',
    );
  });

  it('unwraps a layout table that holds headings, forms or code, keeping its content in order', () => {
    const md = markdownOf(
      '<table><tr><td><h2>News</h2><p>Story one</p></td><td>Menu</td></tr><tr><td>Foot</td><td>er</td></tr></table>',
    );
    expect(md).toBe('## News\n\nStory one\n\nMenu\n\nFoot\n\ner');
    expect(
      markdownOf('<table role="none"><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>'),
    ).toBe('a\n\nb\n\nc\n\nd');
  });

  it('keeps a data table with links and emphasis in its cells', () => {
    expect(
      markdownOf(
        '<table><tr><th>Tool</th><th>Note</th></tr><tr><td><a href="https://x.test/t">Smoker</a></td><td><em>hot</em></td></tr></table>',
      ),
    ).toBe('| Tool | Note |\n| --- | --- |\n| [Smoker](https://x.test/t) | *hot* |');
  });
});

describe('titleHeading', () => {
  it('escapes markdown in the title and collapses whitespace', () => {
    expect(titleHeading('  *Bees*   & [honey]  ')).toBe('# \\*Bees\\* & \\[honey\\]');
  });
});
