import { rootsOf, walkElements } from '@app/extract';
import { isSpace } from './white-space';

/** Containers client-side frameworks render into; empty in the HTML the server sends. */
const APP_ROOT_IDS = new Set(['root', 'app', '__next', '__nuxt', '___gatsby', 'svelte']);
const APP_ROOT_ATTRIBUTES = ['data-reactroot', 'ng-app'];

/** The app roots `element` is, each as its selector (what a verdict names), the id's first. */
function appRootSelectors(element: Element, tag: string): string[] {
  const selectors: string[] = [];
  // Attributes are read one by one: linkedom looks each up in a list.
  const id = element.getAttribute('id');
  if (id && APP_ROOT_IDS.has(id)) selectors.push(`#${id}`);
  if (tag === 'APP-ROOT') selectors.push('app-root');
  for (const name of APP_ROOT_ATTRIBUTES) if (element.hasAttribute(name)) selectors.push(`[${name}]`);
  return selectors;
}

/** Below this much visible text, a page with scripts is assumed to build its content itself. */
export const MIN_STATIC_TEXT = 250;

/** A page with a "needs JavaScript" notice is taken as a wall below this much text. */
const MAX_WALL_TEXT = 1000;

const NOT_SHOWN = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);

/** The length of `text` with its whitespace runs collapsed to one space and its ends trimmed. */
function collapsedLength(text: string): number {
  let length = 0;
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) space = length > 0;
    else {
      length += space ? 2 : 1;
      space = false;
    }
  }
  return length;
}

function visibleTextLength(node: Node): number {
  let length = 0;
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3) length += collapsedLength((child as Text).data);
    else if (child.nodeType === 1 && !NOT_SHOWN.has((child as Element).tagName))
      length += visibleTextLength(child);
  }
  return length;
}

export interface JavaScriptVerdict {
  needed: boolean;
  reason: string;
}

/**
 * Whether `render: auto` should render a page fetched over plain HTTP in the browser: an empty app
 * root, a noscript wall, a meta refresh, or too little text next to scripts.
 */
export function needsJavaScript(document: Document): JavaScriptVerdict {
  const body = document.body ?? document.documentElement;
  let refresh = false;
  let hasScripts = false;
  let wall = false;
  /** The first element of each kind of app root, by its selector, in the document's order. */
  const appRoots = new Map<string, Element>();
  // One walk in the document's order: a selector query per sign walked the whole tree each.
  walkElements(
    rootsOf(document),
    (element) => {
      // Upper case: an <svg>'s children keep theirs as written.
      const tag = element.tagName.toUpperCase();
      if (tag === 'META' && element.getAttribute('http-equiv')?.toLowerCase() === 'refresh') refresh = true;
      else if (tag === 'SCRIPT') hasScripts = true;
      else if (tag === 'NOSCRIPT' && /javascript/i.test(element.textContent ?? '')) wall = true;
      for (const selector of appRootSelectors(element, tag))
        if (!appRoots.has(selector)) appRoots.set(selector, element);
      return true;
    },
    true,
  );
  if (refresh) return { needed: true, reason: 'meta refresh' };
  const text = body ? visibleTextLength(body) : 0;
  if (hasScripts)
    for (const [selector, root] of appRoots)
      if (root.children.length === 0 && !root.textContent?.trim())
        return { needed: true, reason: `empty app root ${selector}` };
  if (wall && text < MAX_WALL_TEXT) return { needed: true, reason: 'noscript wall' };
  if (hasScripts && text < MIN_STATIC_TEXT)
    return { needed: true, reason: `only ${text} characters of text` };
  return { needed: false, reason: `${text} characters of server-rendered text` };
}
