import { parseHTML } from 'linkedom';
import { childElements, elementsIn, walkElements } from './walk';

const body = (html: string) => parseHTML(`<!doctype html><html><body>${html}</body></html>`).document.body;

describe('walkElements', () => {
  it('visits every element below the roots, top-down, the last sibling first', () => {
    const root = body('<div id="a"><p id="a1"></p><p id="a2"><b id="a2b"></b></p></div><div id="b"></div>');
    const seen: string[] = [];
    walkElements(childElements(root), (element) => (seen.push(element.id), true));
    expect(seen).toEqual(['b', 'a', 'a2', 'a2b', 'a1']);
  });

  it('visits in document order when asked', () => {
    const root = body('<div id="a"><p id="a1"></p><p id="a2"><b id="a2b"></b></p></div><div id="b"></div>');
    const seen: string[] = [];
    walkElements(childElements(root), (element) => (seen.push(element.id), true), true);
    expect(seen).toEqual(['a', 'a1', 'a2', 'a2b', 'b']);
  });

  it('does not look inside an element the visitor removed or took whole', () => {
    const root = body(
      '<div id="skip"><p id="inner"></p></div><div id="gone"><p id="lost"></p></div><p id="kept"></p>',
    );
    const seen: string[] = [];
    walkElements(childElements(root), (element) => {
      seen.push(element.id);
      if (element.id === 'gone') element.remove();
      return element.id !== 'skip' && element.id !== 'gone';
    });
    expect(seen).toEqual(['kept', 'gone', 'skip']);
    expect(root.querySelector('#gone')).toBeNull();
  });

  it('walks a tree nested far deeper than the call stack would allow', () => {
    const depth = 20_000;
    const root = body(`${'<div>'.repeat(depth)}<p id="deep"></p>${'</div>'.repeat(depth)}`);
    let visited = 0;
    let deepest: Element | undefined;
    walkElements(childElements(root), (element) => {
      visited++;
      if (element.id === 'deep') deepest = element;
      return true;
    });
    expect(visited).toBe(depth + 1);
    expect(deepest?.tagName).toBe('P');
  });
});

describe('elementsIn', () => {
  it('lists the roots and every element below them, in document order', () => {
    const root = body('<div id="a">x<p id="a1"></p><p id="a2"><b id="a2b">y</b></p></div><div id="b"></div>');
    expect(elementsIn(childElements(root)).map((element) => element.id)).toEqual([
      'a',
      'a1',
      'a2',
      'a2b',
      'b',
    ]);
  });

  it('lists only those it is told to keep, when told', () => {
    const root = body('<div id="a">x<p id="a1"></p><p id="a2"><b id="a2b">y</b></p></div><p id="b"></p>');
    const paragraphs = elementsIn(childElements(root), (element) => element.tagName === 'P');
    expect(paragraphs.map((element) => element.id)).toEqual(['a1', 'a2', 'b']);
  });
});
