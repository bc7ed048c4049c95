import { removeSectionsHeaded } from './sections';
import { planPrune } from './structural';
import { measure } from './text-stats';

/** Headings that introduce other products or what others said, not the page's own product. */
const ELSEWHERE_HEADING =
  /^((explore|discover|shop|see|view|browse) )?(related|similar|recommended|sponsored|other (products|items)|more (products|items)|recently viewed|you (may|might) (also )?like|customers (also|who)|frequently bought|people (who )?(also )?(viewed|bought)|more from|complete the look|shop the look|reviews?\b|customer reviews|ratings?( &| and) reviews)/i;

/**
 * On a product page, cards of other products (related, also viewed, variations) are links to
 * them: the link-dense blocks go even when they repeat, which on a listing would make them content.
 * Sections headed as other products or as reviews go too.
 */
export function removeOtherProducts(content: Element): void {
  for (const block of planPrune(content, measure(content).of, false).blocks) block.remove();
  removeSectionsHeaded(content, ELSEWHERE_HEADING);
}
