import { signature } from './structural';
import type { TextStats } from './text-stats';
import { walkElements } from './walk';
import { squish } from './text';

/** A post's text sits this many levels under the post's own element at most. */
const MAX_POST_DEPTH = 4;

/** Posts of a thread: siblings sharing a tag and a class (a page's columns are fewer). */
const MIN_POSTS = 3;

function isPost(element: Element): boolean {
  if (!element.getAttribute('class')?.trim()) return false;
  const own = signature(element);
  let count = 0;
  for (let sibling = element.parentElement?.firstElementChild; sibling; sibling = sibling.nextElementSibling)
    if (signature(sibling) === own && ++count >= MIN_POSTS) return true;
  return false;
}

/**
 * The element holding all of a thread's posts, from the structural pick's root: one long post (a
 * pasted log) can hold most of the page's text, and the pick then descends into it alone.
 */
export function threadRoot(root: Element, body: Element): Element {
  let at: Element | null = root;
  for (let depth = 0; at && at !== body && depth < MAX_POST_DEPTH; at = at.parentElement, depth++)
    if (isPost(at)) return at.parentElement!;
  return root;
}

/** A fact of a post's author ("Joined: Jun 4, 2024", "Posts: 1,234") is a short line. */
const MAX_FACT_CHARS = 48;

/** Its label, before a colon and a space: words, not a time's hour or a URL's scheme. */
const FACT_LINE = /^([^:\d]{1,30}):\s+\S/;

/** Facts read: past these the rest stays (bounded cost). */
const MAX_FACTS = 5_000;

/**
 * Removes, under a thread's `content`, the facts shown beside each post of its author (joined,
 * messages, reaction score, location): label and value pairs, in a `<dl>` or a line of their own,
 * whose label repeats under MIN_POSTS posts or more. A post's own text does not repeat so.
 */
export function removeAuthorFacts(content: Element, stats: Map<Element, TextStats>): void {
  const facts = new Map<string, Element[]>();
  const add = (label: string, element: Element) => {
    const key = squish(label).toLowerCase();
    facts.set(key, [...(facts.get(key) ?? []), element]);
  };
  let read = 0;
  walkElements([content], (element) => {
    if (read >= MAX_FACTS) return false;
    const chars = stats.get(element)?.chars ?? 0;
    if (element === content || chars === 0 || chars > MAX_FACT_CHARS) return true;
    const label =
      element.tagName === 'DL'
        ? element.querySelector('dt')?.textContent
        : FACT_LINE.exec((element.textContent ?? '').trim())?.[1];
    if (!label) return true;
    add(label, element);
    read++;
    return false;
  });
  for (const elements of facts.values())
    if (elements.length >= MIN_POSTS) for (const element of elements) element.remove();
}
