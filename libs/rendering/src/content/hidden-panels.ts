import { rootsOf, squish, walkElements } from '@app/extract';
import { MAX_DEPTH } from './document-bounds';

/** Controls whose collapsed panels are read, 16 panels each at most; the rest stay hidden. */
const MAX_DISCLOSURE_CONTROLS = 1000;

/** Wrappers around a panel shown with it: a collapse's box or two. */
const MAX_PANEL_WRAPPERS = 2;

/**
 * Tab panels and accordion sections: hidden until a click, yet what the page says (a product's
 * specifications, a service's answers), as a reader who clicks sees them. A panel is a
 * `role=tabpanel`, or what a tab or an expandable control names in `aria-controls`; not a
 * navigation (a collapsed menu repeats the page's links).
 */
function disclosurePanels(document: Document): Set<Element> {
  const panels = new Set<Element>();
  const controlled = new Set<string>();
  let controls = 0;
  // By hand: a selector query per kind walked the whole tree each.
  walkElements(rootsOf(document), (element) => {
    const role = element.getAttribute('role');
    if (role === 'tabpanel') panels.add(element);
    const names = element.getAttribute('aria-controls');
    if (
      names !== null &&
      (role === 'tab' || element.hasAttribute('aria-expanded')) &&
      controls++ < MAX_DISCLOSURE_CONTROLS
    )
      for (const id of names.split(/\s+/, 16)) controlled.add(id);
    return true;
  });
  if (controlled.size)
    walkElements(rootsOf(document), (element) => {
      const id = element.getAttribute('id');
      if (id !== null && controlled.has(id)) panels.add(element);
      return true;
    });
  for (const panel of panels) if (panel.closest('nav, [role="navigation"]')) panels.delete(panel);
  // A collapse wrapper holding the panel alone is what a click shows (`<div style="display:none">`).
  for (const panel of [...panels])
    for (
      let wrapper = panel.parentElement, level = 0;
      wrapper && wrapper.childElementCount === 1 && level < MAX_PANEL_WRAPPERS;
      wrapper = wrapper.parentElement, level++
    )
      panels.add(wrapper);
  return panels;
}

/** h1s read for the page's title: a page holds a few (a menu's, a dialog's, the title). */
const MAX_TITLES = 20;

/** A title is a line: a longer h1 or <title> is read no further. */
const MAX_TITLE_CHARS = 1000;

const lineOf = (text: string | null | undefined) => squish(text?.slice(0, MAX_TITLE_CHARS)).toLowerCase();

export const isHidden = (element: Element) => {
  const style = (element.getAttribute('style') ?? '').replace(/\s+/g, '').toLowerCase();
  return (
    element.hasAttribute('hidden') ||
    element.hasAttribute('popover') ||
    style.includes('display:none') ||
    style.includes('visibility:hidden')
  );
};

/**
 * A page its scripts show once loaded (`<div style="display:none">` or `visibility:hidden` around
 * it until they run): the hidden boxes around the h1 the <title> holds, when no such h1 is shown.
 * A dialog repeating a shown title (a republishing tool's copy of the story) stays hidden.
 */
function hiddenTitleBoxes(document: Document): Element[] {
  const title = lineOf(document.title);
  if (!title) return [];
  const titled = [...document.querySelectorAll('h1')]
    .slice(0, MAX_TITLES)
    .filter((h1) => lineOf(h1.textContent) !== '' && title.includes(lineOf(h1.textContent)));
  const boxes = titled.map((h1) => {
    const hidden: Element[] = [];
    for (let box = h1.parentElement, level = 0; box && level < MAX_DEPTH; box = box.parentElement, level++)
      if (isHidden(box)) hidden.push(box);
    return hidden;
  });
  return boxes.some((hidden) => hidden.length === 0) ? [] : (boxes[0] ?? []);
}

/** What the cleanup keeps shown though hidden: disclosure panels, and a page its scripts show once loaded. */
export function shownAnyway(document: Document): Set<Element> {
  const panels = disclosurePanels(document);
  for (const box of hiddenTitleBoxes(document)) panels.add(box);
  return panels;
}
