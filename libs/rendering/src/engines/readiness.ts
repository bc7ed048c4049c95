/**
 * The readiness rule, measured in the page: a script installed before the page's own scripts
 * (readinessInitScript) watches the DOM from DOMContentLoaded (a MutationObserver on childList and
 * text, not attributes: style animations are not content) and counts what the page has pending:
 * fetches, XHR and short timers (a setTimeout of under TIMER_MAX_MS, the "wait a little, then
 * fetch" of client-rendered pages). The page is quiet once it has loaded, nothing is pending, and neither the DOM nor the
 * pending count has changed for the quiet window (the load event counts as a change). The node side
 * asks once (readinessExpression, one Runtime.evaluate that resolves when quiet or at the cap) and
 * adds what only the network sees (a script chunk loading): see PageMonitor.waitForReady.
 *
 * The script keeps the page's globals it relies on from before any page script ran, so a page that
 * overrides them (setTimeout, Promise, MutationObserver, performance.now, Reflect) can at worst
 * keep itself from looking quiet: it then runs into the cap, like a page that never stops changing.
 * The functions it replaces read as the natives they wrap (name, length, toString), so a page
 * cannot tell them apart by those and treat us as a bot.
 * Outside the engines (a bare Playwright loop): `page.addInitScript(readinessInitScript())` before
 * the navigation, then `await page.evaluate(readinessExpression(quietMs, capMs))` once it has
 * reached DOMContentLoaded (true: quiet; false: the cap); add the network's view if the loop has one.
 */

/** The non-configurable global the script defines: the page can neither replace nor delete it. */
export const READINESS_GLOBAL = '__scraperReadiness';
/** Timers at least this long are not counted: a clock's tick, a carousel, a slow poll. */
export const TIMER_MAX_MS = 1000;
/** How often a waiting check looks again while something is pending. */
const POLL_MS = 50;

/** The source of the init script (Page.addScriptToEvaluateOnNewDocument, or page.addInitScript). */
export function readinessInitScript(): string {
  return `(() => {
  const W = window;
  if (W.top !== W || Object.prototype.hasOwnProperty.call(W, '${READINESS_GLOBAL}')) return;
  const apply = Reflect.apply, P = Promise, then = Promise.prototype.then, min = Math.min, num = Number;
  const setT = W.setTimeout, clearT = W.clearTimeout;
  const perf = W.performance, perfNow = Performance.prototype.now;
  const now = () => apply(perfNow, perf, []);
  const readyState = Object.getOwnPropertyDescriptor(Document.prototype, 'readyState').get;
  const doc = W.document;
  let pending = 0, last = now(), lastDom = last;
  const touch = () => { last = now(); };
  const begin = () => { pending++; touch(); };
  const end = () => { pending--; touch(); };
  const timers = Object.create(null);
  // Our replacements are methods (like natives, they have no prototype and cannot be constructed)
  // that answer toString as the natives they stand for, Function.prototype.toString's own
  // replacement included; name and length are the native's.
  const natives = new WeakMap(), nativeOf = WeakMap.prototype.get;
  const fnToString = Function.prototype.toString, define = Object.defineProperty;
  const mask = (replacement, native) => {
    natives.set(replacement, native);
    define(replacement, 'name', { value: native.name });
    define(replacement, 'length', { value: native.length });
    return replacement;
  };
  Function.prototype.toString = mask({ toString() {
    return apply(fnToString, apply(nativeOf, natives, [this]) || this, []);
  } }.toString, fnToString);
  W.setTimeout = mask({ setTimeout(fn, ms) {
    const delay = num(ms) || 0;
    if (typeof fn !== 'function' || !(delay < ${TIMER_MAX_MS})) return apply(setT, W, arguments);
    let id;
    const args = [function () {
      try { return apply(fn, this, arguments); } finally { if (timers[id]) { delete timers[id]; end(); } }
    }];
    for (let i = 1; i < arguments.length; i++) args[i] = arguments[i];
    id = apply(setT, W, args);
    timers[id] = true;
    begin();
    return id;
  } }.setTimeout, setT);
  W.clearTimeout = mask({ clearTimeout(id) {
    if (timers[id]) { delete timers[id]; end(); }
    return apply(clearT, W, arguments);
  } }.clearTimeout, clearT);
  const nativeFetch = W.fetch;
  if (typeof nativeFetch === 'function') {
    W.fetch = mask({ fetch() {
      begin();
      let done = false;
      const once = () => { if (!done) { done = true; end(); } };
      try {
        const p = apply(nativeFetch, this, arguments);
        apply(then, p, [once, once]);
        return p;
      } catch (e) { once(); throw e; }
    } }.fetch, nativeFetch);
  }
  const xhr = W.XMLHttpRequest && W.XMLHttpRequest.prototype;
  const nativeSend = xhr && xhr.send, listen = EventTarget.prototype.addEventListener;
  if (typeof nativeSend === 'function') {
    xhr.send = mask({ send() {
      begin();
      let done = false;
      const once = () => { if (!done) { done = true; end(); } };
      try {
        apply(listen, this, ['loadend', once]);
        return apply(nativeSend, this, arguments);
      } catch (e) { once(); throw e; }
    } }.send, nativeSend);
  }
  const changed = () => { touch(); lastDom = last; };
  const observer = new W.MutationObserver(changed), observe = MutationObserver.prototype.observe;
  // From DOMContentLoaded: the parser's own insertions would each cost a record, and the load event
  // restarts the window anyway. Ours are the first listeners, so no page listener can stop them.
  let parsed = false;
  const start = () => {
    if (parsed) return;
    parsed = true;
    changed();
    apply(observe, observer, [doc, { childList: true, subtree: true, characterData: true }]);
  };
  if (apply(readyState, doc, []) !== 'loading') start();
  else apply(listen, W, ['DOMContentLoaded', start, true]);
  apply(listen, W, ['load', touch, true]);
  const loaded = () => apply(readyState, doc, []) === 'complete';
  /** Resolves true once quiet for quietMs (domOnly: the DOM alone, once parsed), false after maxMs. */
  const wait = (quietMs, maxMs, domOnly) => new P((resolve) => {
    const until = now() + maxMs;
    const check = () => {
      const t = now();
      const ready = domOnly ? parsed : loaded() && pending === 0;
      const quietFor = t - (domOnly ? lastDom : last);
      if (ready && quietFor >= quietMs) return resolve(true);
      if (t >= until) return resolve(false);
      apply(setT, W, [check, min(ready ? quietMs - quietFor : ${POLL_MS}, until - t)]);
    };
    check();
  });
  Object.defineProperty(W, '${READINESS_GLOBAL}', { value: Object.freeze({ wait }) });
})();`;
}

/**
 * The expression that waits in the page (awaitPromise): true once quiet for `quietMs`, false at
 * `maxMs`, null where the script is not installed (a document it did not run in).
 */
export function readinessExpression(quietMs: number, maxMs: number, domOnly = false): string {
  const args = [Math.max(0, Math.round(quietMs)), Math.max(0, Math.round(maxMs)), domOnly].join(', ');
  return `typeof ${READINESS_GLOBAL} === 'object' ? ${READINESS_GLOBAL}.wait(${args}) : null`;
}
