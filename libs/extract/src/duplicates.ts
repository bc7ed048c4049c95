import { childElements, walkElements } from './walk';
import { squish } from './text';

/**
 * Pages repeat blocks: a description laid out once for phones and once for desktops, a carousel's
 * cloned slides, a sticky copy of the product's title and price. A reader sees one of them; the
 * copies are removed, first one kept.
 */

/** Shorter texts repeat by nature ("Add to cart", "Read more", a size), not as copies of a block. */
const MIN_CHARS = 40;

/** Characters read in all: past this the rest of the page is left as it is (bounded cost). */
const MAX_READ_CHARS = 4_000_000;

const NONE: ReadonlySet<string> = new Set();

/** An element whose whole text is one child element's: its text is that child's, read there. */
function isWrapper(element: Element): boolean {
  if (element.childElementCount !== 1) return false;
  for (let child = element.firstChild; child; child = child.nextSibling)
    if (child.nodeType === 3 && (child as Text).data.trim()) return false;
  return true;
}

/**
 * Removes, under `root`, every element whose text repeats an earlier element's (not its ancestor's).
 * Elements whose tag is in `repeatable`, and what they hold, are left as they are.
 */
export function removeDuplicateBlocks(root: Element, repeatable: ReadonlySet<string> = NONE): void {
  const seen = new Map<string, Element>();
  let budget = MAX_READ_CHARS;
  walkElements(
    childElements(root),
    (element) => {
      if (budget <= 0 || repeatable.has(element.tagName)) return false;
      if (isWrapper(element)) return true;
      const raw = element.textContent ?? '';
      budget -= raw.length;
      const text = squish(raw);
      if (text.length < MIN_CHARS) return false; // nothing under it is long enough either
      const first = seen.get(text);
      if (first && !first.contains(element)) {
        element.remove();
        return false;
      }
      if (!first) seen.set(text, element);
      return true;
    },
    true,
  );
}
