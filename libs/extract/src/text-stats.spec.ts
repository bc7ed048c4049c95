import { parseHTML } from 'linkedom';
import { LiveStats, measure } from './text-stats';
import { childElements, walkElements } from './walk';

const body = (html: string) => parseHTML(`<!doctype html><html><body>${html}</body></html>`).document.body;

/** Every attached element's stats, by id, as a map holds them. */
const byId = (root: Element, of: Map<Element, unknown>) =>
  Object.fromEntries([...root.querySelectorAll('[id]')].map((element) => [element.id, of.get(element)]));

describe('LiveStats', () => {
  const page = `<div id="list"><p id="one">First line <a id="link" href="/a">linked <b id="bold">words</b> here</a></p>
    <p id="two">Second <a id="short" href="/b">x</a></p><div id="box"><p id="inner">Inner <a id="deep" href="/c">link</a></p>
    <p id="kept">Kept text</p></div></div>`;

  it('reads as a fresh measure once the pass that removed blocks has ended', () => {
    const root = body(page);
    const live = new LiveStats(root);
    const before = live.current();
    const removed = ['bold', 'two', 'inner'].map((id) => root.querySelector(`#${id}`)!);
    for (const element of removed) live.remove(element);
    // The pass still reads what it began with.
    const untouched = body(page);
    expect(before.get(root)).toEqual(measure(untouched).of.get(untouched));
    expect(byId(root, live.current())).toEqual(byId(root, measure(root).of));
  });

  it('counts a block removed inside another removed block once', () => {
    const root = body(page);
    const live = new LiveStats(root);
    live.remove(root.querySelector('#deep')!);
    live.remove(root.querySelector('#box')!);
    expect(byId(root, live.current())).toEqual(byId(root, measure(root).of));
    expect(live.current().get(root)).toEqual(measure(root).of.get(root));
  });

  it('reads a line again once something under it is removed, and keeps it otherwise', () => {
    const root = body(page);
    const live = new LiveStats(root);
    const box = root.querySelector('#box')!;
    expect(live.lineText(box)).toBe('Inner link Kept text');
    live.remove(root.querySelector('#deep')!);
    expect(live.lineText(box)).toBe('Inner Kept text');
    const kept = root.querySelector('#kept')!;
    expect(live.lineText(kept)).toBe('Kept text');
    // A sibling's removal leaves the line as it was read.
    kept.firstChild!.textContent = 'changed behind its back';
    live.remove(root.querySelector('#inner')!);
    expect(live.lineText(kept)).toBe('Kept text');
    expect(live.lineText(box)).toBe('changed behind its back');
  });

  it('walks as walkElements does, into an element only when told to, and sees what was removed', () => {
    const root = body(page);
    const live = new LiveStats(root);
    const ids = (skip: string[]) => {
      const seen: string[] = [];
      live.walk((element) => {
        seen.push(element.id);
        return !skip.includes(element.id);
      });
      return seen;
    };
    const walked = (skip: string[]) => {
      const seen: string[] = [];
      walkElements(
        childElements(root),
        (element) => {
          seen.push(element.id);
          return !skip.includes(element.id);
        },
        true,
      );
      return seen;
    };
    expect(ids([])).toEqual(['list', 'one', 'link', 'bold', 'two', 'short', 'box', 'inner', 'deep', 'kept']);
    expect(ids(['one', 'box'])).toEqual(walked(['one', 'box']));
    expect(ids(['list'])).toEqual(['list']);
    live.remove(root.querySelector('#two')!);
    live.remove(root.querySelector('#deep')!);
    expect(ids([])).toEqual(['list', 'one', 'link', 'bold', 'box', 'inner', 'kept']);
  });
});
