import { productTitle } from './product';
import { classAndId } from './signals';
import type { TextStats } from './text-stats';
import { childElements, walkElements } from './walk';
import { squish } from './text';

/** A buy button's words, in the shops' languages: the form that holds one buys the product. */
const BUY_BUTTON =
  /\b(add to (cart|bag|basket)|buy (it )?now|in den (warenkorb|einkaufswagen)|ajouter au panier|añadir al carrito|aggiungi al carrello|in winkelwagen|do koszyka)\b/i;

/** A form's target that is a shop's cart. */
const CART_ACTION = /cart|basket|panier|warenkorb|carrito|carrello|winkelwagen|koszyk/i;

/**
 * Class and id words of the buy box and what stands in it: the box itself, its form, the payment
 * options and instalments offered, the shop's selling points ("usp": delivery times, free returns).
 */
const BUY_NAME =
  /(^|[\s_-])(add-?to-?(cart|bag|basket)|addtocart|buy-?box|product-?form|usps?|payments?|installments?)([\s_-]|$)/i;

/** A buy box is a few controls and their labels; more text is the product's own (a form around the page). */
const MAX_BUY_CHARS = 1000;

/** Nor is it more than a few hundred elements: the prose check below reads no further. */
const MAX_BUY_ELEMENTS = 1000;

/** A paragraph this long is the product's description, not a label. */
const MIN_PROSE_CHARS = 150;

/** Buttons read in a form. */
const MAX_BUTTONS = 20;

/** Attribute values read: a page can put megabytes in one. */
const MAX_ATTRIBUTE_CHARS = 300;

/** Whether the block holds the product's description: a shop may put its whole text in the form. */
function holdsProse(block: Element): boolean {
  if (block.querySelector('[itemprop="description" i]')) return true;
  for (const paragraph of block.querySelectorAll('p'))
    if (squish(paragraph.textContent).length >= MIN_PROSE_CHARS) return true;
  return false;
}

function buyForm(form: Element): boolean {
  if (CART_ACTION.test((form.getAttribute('action') ?? '').slice(0, MAX_ATTRIBUTE_CHARS))) return true;
  return [...form.querySelectorAll('button, input[type="submit" i]')].slice(0, MAX_BUTTONS).some((button) => {
    const label = `${button.textContent ?? ''} ${button.getAttribute('value') ?? ''}`;
    return BUY_BUTTON.test(label.slice(0, MAX_ATTRIBUTE_CHARS));
  });
}

/**
 * Removes a page's buy boxes before the content is picked (a product's, a collection card's, whether
 * or not the page says it is a product): a block named so (BUY_NAME) or a
 * form that buys (its target a cart, or a buy button), holding the price's options, the quantity,
 * the payment plans and delivery promises ("Color: white", "or 4 payments of", "Standard Delivery
 * (4-7 Working Days)"): controls and their labels, not the product's text. The largest such block,
 * of at most MAX_BUY_CHARS, not holding the page's title nor a paragraph of prose.
 */
export function removeBuyBoxes(root: Element, stats: Map<Element, TextStats>): void {
  // The title is looked for at the first buy box, before anything is removed: most pages have none.
  let title: Element | null | undefined;
  walkElements(childElements(root), (element) => {
    const measured = stats.get(element);
    if (!measured || measured.chars > MAX_BUY_CHARS || measured.elements > MAX_BUY_ELEMENTS) return true;
    const buys = BUY_NAME.test(classAndId(element)) || (element.tagName === 'FORM' && buyForm(element));
    if (!buys) return true;
    if (title === undefined) title = productTitle(root);
    if ((title && element.contains(title)) || holdsProse(element)) return true;
    element.remove();
    return false;
  });
}
