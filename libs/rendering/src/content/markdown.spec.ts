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
});

describe('titleHeading', () => {
  it('escapes markdown in the title and collapses whitespace', () => {
    expect(titleHeading('  *Bees*   & [honey]  ')).toBe('# \\*Bees\\* & \\[honey\\]');
  });
});
