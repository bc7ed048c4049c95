import { HOSTILE_CONTENT } from '../../../../test/fixtures/hostile-content';
import { PageFailure } from '../page-errors';
import { MAX_DEPTH, MAX_ELEMENTS } from './document-bounds';
import { countStartTags, parseDocument } from './html-document';
import { DOMParser } from 'linkedom';
import { parserStackPatched } from './parser-patches';
import { elementToMarkdown } from './markdown';
import { buildContent } from './page-content';

// Each class of page built to be costly to convert (test/fixtures/hostile-content.ts), at a
// quarter of the size bench:content-scaling starts from: its content comes back, its text kept,
// and no format grows more than a few times the page (the time is the bench's to show).
describe.each(HOSTILE_CONTENT)('a page of $name', (hostile) => {
  it('converts, keeping its text, with formats bounded by its size', () => {
    const html = hostile.html(Math.round(hostile.n / 4));
    const content = buildContent({
      body: html,
      kind: 'html',
      url: 'http://127.0.0.1/page',
      options: { formats: ['markdown', 'text', 'links', 'html'], only_main_content: false },
    });
    expect(content.markdown).toContain(hostile.keeps);
    expect(content.text).toContain(hostile.keeps);
    expect(content.markdown!.length).toBeLessThan(4 * html.length + 10_000);
    expect(content.text!.length).toBeLessThan(2 * html.length + 10_000);
    expect(content.html!.length).toBeLessThan(2 * html.length + 10_000);
    expect(content.links!.length).toBeLessThanOrEqual(countStartTags(html));
  });
});

const depthOf = (root: Element) => {
  let deepest = 0;
  const stack: [Element, number][] = [[root, 1]];
  while (stack.length) {
    const [element, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      stack.push([child, depth + 1]);
    }
  }
  return deepest;
};

describe('parseDocument bounds', () => {
  it('flattens markup deeper than MAX_DEPTH into its text, keeping the text and its lines', () => {
    const html = `<html><body>${'<div>'.repeat(20_000)}<p>first</p><p>second</p><script>hidden()</script>${'</div>'.repeat(20_000)}</body></html>`;
    const document = parseDocument(html);
    expect(depthOf(document.documentElement)).toBe(MAX_DEPTH);
    expect(document.body.textContent).toContain('first\n');
    expect(document.body.textContent).toContain('second');
    expect(document.body.textContent).not.toContain('hidden');
    const content = buildContent({
      body: html,
      kind: 'html',
      url: 'http://127.0.0.1/',
      options: { formats: ['markdown', 'text'], only_main_content: true },
    });
    expect(content.markdown).toMatch(/first\s+second/);
    expect(content.text).toMatch(/first\s+second/);
  });

  it('parses with a constant-time open-element stack and text in one node between tags', () => {
    expect(parserStackPatched()).toBe(true);
    const html =
      '<html><body><div><p>a<b>c</p><p>x<li>1<li>2</div><svg><g><title>t</title></g></svg><table><tr><td>q</table><p>end</body></html>';
    expect(parseDocument(html).documentElement.outerHTML).toBe(
      '<html><body><div><p>a<b>c</b></p><p>x<li>1</li><li>2</li></p></div><svg><g><title>t</title></g></svg><table><tr><td>q</td></tr></table><p>end</p></body></html>',
    );
    const entities = parseDocument(`<html><body><p>${'&amp;&lt;'.repeat(100_000)}!</p></body></html>`);
    expect(entities.querySelector('p')!.childNodes).toHaveLength(1);
    expect(entities.querySelector('p')!.textContent).toBe(`${'&<'.repeat(100_000)}!`);
    // Text after the last tag is kept too (no tag follows to flush it).
    expect(parseDocument('<p>a</p>tail &amp; more').lastChild?.textContent).toBe('tail & more');
    const deep = parseDocument(`<html><body>${'<div>'.repeat(150_000)}bottom</body></html>`);
    expect(deep.body.textContent?.trim()).toBe('bottom');
  });

  it('keeps markup within MAX_DEPTH as it is', () => {
    const html = `<html><body>${'<div>'.repeat(MAX_DEPTH - 3)}<b>bold</b>${'</div>'.repeat(MAX_DEPTH - 3)}</body></html>`;
    expect(parseDocument(html).querySelector('b')?.textContent).toBe('bold');
  });

  it('refuses a document of more than MAX_ELEMENTS tags as TOO_COMPLEX, before parsing it', () => {
    const html = `<html><body>${'<i>'.repeat(MAX_ELEMENTS + 1)}</body></html>`;
    expect(() => parseDocument(html)).toThrow(PageFailure);
    expect(() => parseDocument(html)).toThrow(`more than the ${MAX_ELEMENTS} allowed`);
    try {
      parseDocument(html);
    } catch (err) {
      expect((err as PageFailure).code).toBe('TOO_COMPLEX');
    }
  });

  it('keeps the first 100 candidates of a srcset, absolute', () => {
    const srcset = Array.from({ length: 1000 }, (_, i) => `/img/${i}.png ${i + 1}w`).join(', ');
    const content = buildContent({
      body: `<html><body><p>image</p><img alt="x" src="/a.png" srcset="${srcset}"></body></html>`,
      kind: 'html',
      url: 'http://127.0.0.1/page',
      options: { formats: ['html'], only_main_content: false },
    });
    const kept = /srcset="([^"]*)"/.exec(content.html!)![1].split(', ');
    expect(kept).toHaveLength(100);
    expect(kept.at(-1)).toBe('http://127.0.0.1/img/99.png 100w');
  });

  it('counts start tags, not other uses of <', () => {
    expect(countStartTags('<p>a < b <3 </p><!-- c --><Br/>')).toBe(2);
  });

  it('ends a stray <![CDATA[ in the body at the next >, as a browser does', () => {
    const document = parseDocument('<html><body><![CDATA[ stray ><p>kept</p><p>too</p></body></html>');
    expect(document.body.textContent).toBe('kepttoo');
  });

  it('reads a class attribute of any number of classes', () => {
    const classes = Array.from({ length: 200_000 }, (_, i) => `c${i}`).join(' ');
    const document = parseDocument(`<html><body><p class="${classes}">classy</p></body></html>`);
    expect(document.querySelector('p')?.classList.length).toBe(200_000);
    expect(document.querySelector('p.c199999')?.textContent).toBe('classy');
  });

  it("names elements by each document's case rule, HTML's upper case and XML's own case", () => {
    const html = parseDocument(
      '<html><body><section><svg><foreignObject></foreignObject></svg></section></body></html>',
    );
    expect([...html.querySelectorAll('*')].map((element) => element.tagName)).toEqual(
      expect.arrayContaining(['SECTION', 'SVG', 'FOREIGNOBJECT']),
    );
    const xml = new DOMParser().parseFromString('<feed><section/><Entry/></feed>', 'text/xml');
    expect([...xml.querySelectorAll('*')].map((element) => element.nodeName)).toEqual([
      'feed',
      'section',
      'Entry',
    ]);
  });
});

const markdownOf = (body: string) =>
  elementToMarkdown(parseDocument(`<!doctype html><html><body>${body}</body></html>`).body);

describe('markdown of costly shapes', () => {
  it('pads only the heading row of a table whose grid would dwarf its cells', () => {
    const md = markdownOf(
      `<table><tr>${'<td>h</td>'.repeat(100)}</tr>${'<tr><td>r</td></tr>'.repeat(100)}</table>`,
    );
    const lines = md.split('\n');
    expect(lines[0]).toBe(`|${' h |'.repeat(100)}`);
    expect(lines[1]).toBe(`|${' --- |'.repeat(100)}`);
    expect(lines.slice(2)).toEqual(Array(100).fill('| r |'));
  });

  it('keeps list items and quotes nested past ten levels as text at the tenth', () => {
    const md = markdownOf(`${'<ul><li>item'.repeat(30)}deepest${'</li></ul>'.repeat(30)}`);
    expect(md).toContain('deepest');
    const indents = md.split('\n').map((line) => line.length - line.trimStart().length);
    expect(Math.max(...indents)).toBeLessThanOrEqual(40);
    const quoted = markdownOf(`${'<blockquote>q'.repeat(30)}inside${'</blockquote>'.repeat(30)}`);
    expect(quoted).toContain('inside');
    expect(
      Math.max(...quoted.split('\n').map((line) => (line.match(/^(> ?)*/)?.[0] ?? '').length)),
    ).toBeLessThanOrEqual(20);
  });

  it('numbers a long ordered list from its start', () => {
    const md = markdownOf(`<ol start="5">${'<li>x</li>'.repeat(1000)}</ol>`);
    expect(md.split('\n').at(-1)).toBe('1004.  x');
  });

  it('fences inline code past its backtick runs, padding it where CommonMark would strip', () => {
    expect(markdownOf('<p>a<code>``x`</code>b</p>')).toBe('a``` ``x` ```b');
    expect(markdownOf('<p>x<code>` a `</code>y</p>')).toBe('x`` ` a ` ``y');
    const runs = Array.from({ length: 30 }, (_, i) => '`'.repeat(i + 1)).join(' ');
    const fence = '`'.repeat(31);
    expect(markdownOf(`<p>a<code>${runs}</code></p>`)).toBe(`a${fence} ${runs} ${fence}`);
  });

  it('gives table parts outside a table and links inside links up, keeping their content', () => {
    const document = parseDocument(
      '<html><body><div><td><h2>Cell</h2><p>lifted</p></td></div></body></html>',
    );
    expect(elementToMarkdown(document.body)).toBe('## Cell\n\nlifted');
    expect(markdownOf('<p><a href="/a">out <a href="/b">in</a> after</a></p>')).toBe(
      '[out](/a) [in](/b) after',
    );
    expect(markdownOf('<p><a href="/a">out <b><a href="/b">in</a></b></a></p>')).toBe('out **[in](/b)**');
  });
});
