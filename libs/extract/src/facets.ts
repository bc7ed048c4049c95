import { names } from './signals';
import type { TextStats } from './text-stats';
import { childElements, walkElements } from './walk';

/** Words naming a listing's facet and filter panel, in a class or id token, its first or last part. */
const FACET_WORDS = new Set('filter filters facet facets refinement refinements refine'.split(' '));

/** A panel holding more than this share of the page's text is not a side panel. */
const MAX_FACET_SHARE = 0.3;

/** A filter panel's options: checkboxes, their labels, list items. */
const OPTIONS = 'input, option, label, li';

/** Options are short ("Red", "$10 - $25", "ASUS (12)"): a panel of prose is not a filter panel. */
const MAX_CHARS_PER_OPTION = 40;

/** Options looked at in one panel: enough to tell a panel from prose. */
const MAX_OPTIONS = 1000;

/** Named panels whose options are counted, each a query of its subtree: a page's own are a few. */
const MAX_PANELS = 100;

function isOptionPanel(element: Element, chars: number): boolean {
  const options = element.querySelectorAll(OPTIONS).length;
  return options >= 3 && chars / Math.min(options, MAX_OPTIONS) <= MAX_CHARS_PER_OPTION;
}

/**
 * Removes a collection's or a listing's facet and filter panels (colours, sizes, brands, price
 * ranges with their checkboxes): named so in their class or id, made of short options. Their options are often labels, not links, so link density does not find them.
 */
export function removeFacetPanels(root: Element, stats: Map<Element, TextStats>): void {
  const total = Math.max(1, stats.get(root)?.chars ?? 0);
  let panels = 0;
  walkElements(childElements(root), (element) => {
    const { heads, tails } = names(element);
    const chars = stats.get(element)?.chars ?? 0;
    if (
      [...heads, ...tails].some((word) => FACET_WORDS.has(word)) &&
      chars / total < MAX_FACET_SHARE &&
      ++panels <= MAX_PANELS &&
      isOptionPanel(element, chars)
    ) {
      element.remove();
      return false;
    }
    return true;
  });
}
