/** Containers client-side frameworks render into; empty in the HTML the server sends. */
const APP_ROOTS = [
  '#root',
  '#app',
  '#__next',
  '#__nuxt',
  '#___gatsby',
  '#svelte',
  'app-root',
  '[data-reactroot]',
  '[ng-app]',
];

const APP_ROOT_ANY = APP_ROOTS.join(', ');

/** Below this much visible text, a page with scripts is assumed to build its content itself. */
export const MIN_STATIC_TEXT = 250;

/** A page with a "needs JavaScript" notice is taken as a wall below this much text. */
const MAX_WALL_TEXT = 1000;

const NOT_SHOWN = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);

function visibleTextLength(node: Node): number {
  let length = 0;
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3) length += (child.textContent ?? '').replace(/\s+/g, ' ').trim().length;
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
  if (document.querySelector('meta[http-equiv="refresh" i]')) return { needed: true, reason: 'meta refresh' };
  const hasScripts = document.querySelector('script') !== null;
  const text = body ? visibleTextLength(body) : 0;
  // One walk tells whether there is any app root (most pages have none); only then one per kind.
  if (hasScripts && document.querySelector(APP_ROOT_ANY)) {
    for (const selector of APP_ROOTS) {
      const root = document.querySelector(selector);
      if (root && root.children.length === 0 && !root.textContent?.trim()) {
        return { needed: true, reason: `empty app root ${selector}` };
      }
    }
  }
  const wall = [...document.querySelectorAll('noscript')].some((n) =>
    /javascript/i.test(n.textContent ?? ''),
  );
  if (wall && text < MAX_WALL_TEXT) return { needed: true, reason: 'noscript wall' };
  if (hasScripts && text < MIN_STATIC_TEXT)
    return { needed: true, reason: `only ${text} characters of text` };
  return { needed: false, reason: `${text} characters of server-rendered text` };
}
