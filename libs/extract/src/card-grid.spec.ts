import { parseHTML } from 'linkedom';
import { MIN_ROW_CARDS, planPrune } from './structural';
import { measure } from './text-stats';

const plan = (body: string, minCards?: number) => {
  const { document } = parseHTML(`<!doctype html><html><head></head><body>${body}</body></html>`);
  const root = document.getElementById('root')!;
  return planPrune(root, measure(root).of, true, minCards);
};

const PROSE = `<p>${'Words of the category description that the page opens with. '.repeat(40)}</p>`;

// Each card is a link around its picture and title: the grid is as link-dense as a menu.
const card = (i: number, extra = '') =>
  `<li class="tile"><a href="/p/${i}"><img src="/p/${i}.jpg" alt=""><h3>Product ${i} title</h3></a>${extra}</li>`;

const grid = (n: number, part = card) =>
  `<div class="grid"><ul class="tiles">${Array.from({ length: n }, (_, i) => part(i)).join('')}</ul></div>`;

describe('planPrune on a grid of cards', () => {
  it('keeps a link-dense grid whose items carry a picture or a title', () => {
    const { blocks } = plan(`<div id="root">${PROSE}${grid(12)}</div>`);
    expect(blocks).toHaveLength(0);
  });

  it('does not count such a grid beside the text toward the page being a listing', () => {
    expect(plan(`<div id="root">${PROSE}${grid(12)}</div>`).itemShare).toBe(0);
  });

  it('prunes a strip of a few cards beside the content (related stories, other products)', () => {
    const { blocks } = plan(`<div id="root">${PROSE}${grid(4)}</div>`);
    expect(blocks.map((block) => block.className)).toEqual(['grid']);
  });

  it("keeps a row of a few cards on a page that is no article (a shop's featured products)", () => {
    expect(plan(`<div id="root">${PROSE}${grid(4)}</div>`, MIN_ROW_CARDS).blocks).toHaveLength(0);
  });

  it('prunes a menu of bare links, repeated as it is', () => {
    const entry = (i: number) => `<li class="entry"><a href="/c/${i}">Category ${i}</a></li>`;
    const { blocks } = plan(`<div id="root">${PROSE}${grid(12, entry)}</div>`);
    expect(blocks.map((block) => block.className)).toEqual(['grid']);
  });
});

describe('planPrune on items told apart by a letter', () => {
  // An index's columns, one a letter ("cats A", "cats B"): a letter names the item, not its kind.
  it('reads siblings whose classes differ by a one-letter token as repeated items', () => {
    const letters = 'ABCDEF'.split('');
    const column = (letter: string) =>
      `<div class="cats ${letter}">${letter} <a href="/${letter}/1">${letter} first entry</a> <a href="/${letter}/2">${letter} second entry</a></div>`;
    const { blocks } = plan(
      `<div id="root"><p>A few words on the index.</p>${letters.map(column).join('')}</div>`,
    );
    expect(blocks).toHaveLength(0);
  });
});

describe("planPrune on a story's linked title", () => {
  it('keeps a block whose text is one heading, linked as a title is', () => {
    const story = `<div class="story"><div class="title-wrap"><h3><a href="/s/1">A story's own title</a></h3></div><p>Its short summary.</p></div>`;
    const menu = `<div class="links"><a href="/a">About</a> <a href="/b">Contact</a> <a href="/c">Careers</a></div>`;
    const { blocks } = plan(`<div id="root">${PROSE}${story}${menu}</div>`);
    expect(blocks.map((block) => block.className)).toEqual(['links']);
  });
});
