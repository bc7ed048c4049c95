import { parseHTML } from 'linkedom';

// An empty document to try selectors on: the worker applies them with the same parser (linkedom),
// so a selector it would choke on is refused here, at acceptance, instead of failing every page.
const { document: selectorProbe } = parseHTML('<html><body></body></html>');

export function isCssSelector(value: string): boolean {
  try {
    selectorProbe.querySelector(value);
    return true;
  } catch {
    return false;
  }
}
