import { parseHTML } from 'linkedom';
import { extractMainContent } from './extract';
import { coverageRoot, planPrune } from './structural';
import { measure } from './text-stats';

const rootOf = (body: string) => {
  const { document } = parseHTML(`<!doctype html><html><head></head><body>${body}</body></html>`);
  return coverageRoot(document.body, measure(document.body).of);
};

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => `<tr><td>row ${i} of the data</td><td>value ${i * 7}</td></tr>`).join(
    '',
  );

describe('coverageRoot', () => {
  it('descends to the block that holds most of the page', () => {
    const root = rootOf(`<header>Site</header><div id="outer"><div id="inner"><p>${'words '.repeat(200)}</p>
      </div></div><footer>Footer</footer>`);
    expect(root.tagName).toBe('P');
  });

  // The root's children are what is converted: a table's rows alone would lose their table.
  it('stops above a table', () => {
    const root = rootOf(`<h1>Data</h1><div id="data"><table><thead><tr><th>Row</th><th>Value</th></tr></thead>
      <tbody>${rows(300)}</tbody></table></div>`);
    expect(root.id).toBe('data');
  });

  it('stops above a code block, a quote and a figure', () => {
    for (const [tag, inner] of [
      ['PRE', `<code>${'let x = 1;\n'.repeat(200)}</code>`],
      ['BLOCKQUOTE', `<p>${'quoted words '.repeat(200)}</p>`],
      ['FIGURE', `<div>${'figure words '.repeat(200)}</div><figcaption>Caption</figcaption>`],
    ])
      expect(rootOf(`<div id="outer"><${tag}>${inner}</${tag}></div>`).id).toBe('outer');
  });

  // Its text weighs as a link's at the link only: its first paragraph alone would outweigh it.
  it('stops above a link that wraps the blocks', () => {
    const root = rootOf(
      `<div id="outer"><a><p>${'first '.repeat(20)}</p><p>${'second '.repeat(20)}</p></a></div>`,
    );
    expect(root.id).toBe('outer');
  });
});

// Unlike classes, so that the blocks are not items of a repeated structure.
const NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];

describe('planPrune', () => {
  const card = (i: number, cls: string) =>
    `<div class="${cls}"><a href="/item/${i}">Item ${i} is a card whose title is a link to it</a></div>`;
  const plan = (body: string) => {
    const { document } = parseHTML(`<!doctype html><html><head></head><body>${body}</body></html>`);
    const root = document.getElementById('grid')!;
    return planPrune(root, measure(root).of);
  };

  it('reads cards as repeated items though each carries its own id and position in its class', () => {
    const grid = [0, 1, 2, 3, 4, 5].map((i) =>
      card(i, `card post-${1000 + i} ${i % 3 === 0 ? 'first' : ''}`),
    );
    const { blocks, itemShare } = plan(
      `<div id="grid"><p>${'intro words '.repeat(8)}</p>${grid.join('')}</div>`,
    );
    expect(blocks).toHaveLength(0);
    expect(itemShare).toBeGreaterThan(0.5);
  });

  it('tells how much of the root its link-dense blocks hold', () => {
    const lists = NAMES.map((name, i) => `<div class="${name}">${card(i, 'card')}</div>`);
    expect(plan(`<div id="grid"><p>a few words</p>${lists.join('')}</div>`).blockShare).toBeGreaterThan(0.8);
  });
});

describe('extractMainContent on a page of links', () => {
  it('keeps link-dense blocks that are most of the page: they are its content', () => {
    const groups = NAMES.map(
      (i) =>
        `<div class="group-${i}"><a href="/g/${i}">Directory entry ${i} with a long descriptive title</a></div>`,
    ).join('');
    const { document } = parseHTML(`<!doctype html><html><body><div id="dir">${groups}</div></body></html>`);
    expect(extractMainContent(document).textContent).toContain('Directory entry epsilon');
  });
});
