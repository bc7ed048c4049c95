import {
  MAX_HTML_BYTES,
  type ActionLimits,
  type ActionResults,
  type JsonType,
  type PageAction,
} from '@app/queue-contracts';
import { DeadlineError, remaining, sleep, withDeadline } from '../deadline';
import { BrowserGoneError, firstLine, type PageError } from '../page-errors';
import { browserProfile } from './browser-profile';
import type { BrowserTab } from './browser-render';
import type { EngineRequest } from './engine';
import type { PageMonitor } from './page-monitor';

/**
 * Page actions (docs/api.md, "Page actions") over the tab's own CDP session, so both browser
 * engines act alike: clicks and keys are Chromium's input events (trusted, as a person's), the
 * DOM is looked up in our isolated world, one way for every selector (findFunction; the page
 * cannot fake what we find), and only
 * `execute_javascript` runs in the page's own world. Every step ends at the page's deadline.
 */

/** A page that keeps changing after a click is read anyway after this long (as after a load). */
const SETTLE_AFTER_INPUT_MS = 1000;
/**
 * The steps' own waits end at the page's deadline and say what they waited for; this later bound
 * catches a step that does not answer at all (a script that never returns).
 */
const STEP_GRACE_MS = 500;
/** `click` with `all: true` clicks at most this many matches. */
const MAX_CLICKS = 100;
/** Characters of JSON an `execute_javascript` may return; more fails the action. */
export const MAX_RETURN_CHARS = 1024 * 1024;
/** Taller full-page screenshots exceed Chromium's texture limits and the 5 MB cap anyway. */
export const MAX_SCREENSHOT_HEIGHT = 16_384;

/** Keys `press` names, with what Chromium needs to act on them (form submit on Enter, etc.). */
const KEYS: Record<string, { key: string; code: string; keyCode: number; text?: string }> = {
  Enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  Backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  Delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  ArrowUp: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  Home: { key: 'Home', code: 'Home', keyCode: 36 },
  End: { key: 'End', code: 'End', keyCode: 35 },
  PageUp: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  PageDown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  Space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
};

/** Why an action failed, in words for the page's ACTION_FAILED message. */
class ActionError extends Error {}

interface Run {
  tab: BrowserTab;
  monitor: PageMonitor;
  request: EngineRequest;
  limits: ActionLimits;
  idleMs: number;
  results: ActionResults;
  waitedMs: number;
  screenshotBytes: number;
  scrapeBytes: number;
}

/**
 * Does the request's actions in order. A failing action stops the rest: the page fails with
 * ACTION_FAILED naming its index and why, and keeps what the earlier actions brought back.
 */
export async function runActions(
  tab: BrowserTab,
  monitor: PageMonitor,
  request: EngineRequest,
  settings: { actionLimits: ActionLimits; idleMs: number },
): Promise<{ results: ActionResults; error?: PageError }> {
  const results: ActionResults = { screenshots: [], javascript_returns: [], scrapes: [] };
  const run: Run = {
    tab,
    monitor,
    request,
    limits: settings.actionLimits,
    idleMs: settings.idleMs,
    results,
    waitedMs: 0,
    screenshotBytes: 0,
    scrapeBytes: 0,
  };
  const actions = request.options.actions ?? [];
  for (const [index, action] of actions.entries()) {
    try {
      const ms = remaining(request.deadline) + STEP_GRACE_MS;
      await withDeadline(act(run, action), ms, `actions[${index}]`);
    } catch (err) {
      if (tab.gone()) throw new BrowserGoneError(err);
      if (tab.crashed) throw err;
      let why = firstLine(err);
      if (err instanceof DeadlineError) {
        // A script still running would hold the page's main thread past its deadline.
        await withDeadline(monitor.terminateScripts(), 1000, 'stopping scripts').catch(() => undefined);
        why = `the page's timeout of ${request.options.timeout} ms ran out`;
      }
      const message = `actions[${index}] (${action.type}) failed: ${why}`;
      return { results, error: { code: 'ACTION_FAILED', message } };
    }
  }
  return { results };
}

async function act(run: Run, action: PageAction): Promise<void> {
  switch (action.type) {
    case 'wait':
      if ('selector' in action) return waitFor(run, action.selector);
      run.waitedMs += action.milliseconds;
      if (run.waitedMs > run.limits.maxWaitMs) {
        throw new ActionError(`the waits add up to more than ${run.limits.maxWaitMs} ms`);
      }
      return sleep(Math.min(action.milliseconds, remaining(run.request.deadline)));
    case 'click':
      await waitFor(run, action.selector);
      await click(run, action.selector, action.all ? MAX_CLICKS : 1);
      return settle(run);
    case 'write':
      await waitFor(run, action.selector);
      await click(run, action.selector, 1);
      for (const ch of action.text) await key(run, ch === '\n' ? KEYS.Enter : charKey(ch));
      return settle(run);
    case 'press':
      await key(run, KEYS[action.key] ?? charKey(action.key));
      return settle(run);
    case 'scroll':
      await run.monitor.evaluate(scrollExpression(action.direction, action.amount));
      return settle(run);
    case 'screenshot':
      return screenshot(run, action.full_page ?? false);
    case 'execute_javascript':
      run.results.javascript_returns.push(await execute(run, action.script));
      return;
    case 'scrape': {
      const html = await run.monitor.html();
      run.scrapeBytes += Buffer.byteLength(html);
      if (run.scrapeBytes > MAX_HTML_BYTES) {
        throw new ActionError(`the scrape snapshots add up to more than ${MAX_HTML_BYTES} bytes`);
      }
      run.results.scrapes.push({ url: run.tab.url(), html });
    }
  }
}

async function waitFor(run: Run, selector: string): Promise<void> {
  const found = await waitForSelector(run.monitor, selector, run.request.deadline);
  if (found === 'invalid')
    throw new ActionError(`${JSON.stringify(selector)} is not a selector the browser takes`);
  if (found === 'timeout') {
    throw new ActionError(
      `the selector ${JSON.stringify(selector)} did not appear within the page's timeout of ${run.request.options.timeout} ms`,
    );
  }
}

/**
 * How a selector finds elements, for every action that takes one and for `wait_for`, in both
 * engines alike: the browser's own CSS matching over the document and every open shadow root, in
 * tree order (a host's shadow tree before its children), as Playwright's CSS engine does; so a page
 * built of web components acts the same through either engine. Closed shadow roots and frames are
 * not searched. Run in our own world; defines `find(index)`, the index-th match or null.
 */
const findFunction = (selector: string) => `const selector = ${JSON.stringify(selector)};
const find = (index) => {
  let seen = 0;
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.matches(selector) && seen++ === index) return el;
      const hit = el.shadowRoot && walk(el.shadowRoot);
      if (hit) return hit;
    }
    return null;
  };
  return walk(document);
};
try {
  document.createDocumentFragment().querySelector(selector);
} catch {
  return 'invalid';
}`;

/** How often a wait looks for its selector again. */
const SELECTOR_POLL_MS = 50;

/**
 * Resolves once an element matches `selector` (findFunction), 'timeout' at `until` (epoch ms),
 * 'invalid' if the browser takes no such selector. Polls in our own world: a mutation observer
 * would not see into shadow roots. A page that blocks its main thread is given up at `until`.
 */
export async function waitForSelector(
  monitor: PageMonitor,
  selector: string,
  until: number,
): Promise<'found' | 'timeout' | 'invalid'> {
  const expression = `(async () => {
    ${findFunction(selector)}
    for (;;) {
      if (find(0)) return 'found';
      const left = ${until} - Date.now();
      if (left <= 0) return 'timeout';
      await new Promise((done) => setTimeout(done, Math.min(left, ${SELECTOR_POLL_MS})));
    }
  })()`;
  try {
    return (await withDeadline(
      monitor.evaluate(expression),
      remaining(until) + SELECTOR_POLL_MS,
      'the selector wait',
    )) as 'found' | 'timeout' | 'invalid';
  } catch (err) {
    if (err instanceof DeadlineError) return 'timeout';
    throw err;
  }
}

/** Interactions start requests and timers: the page is given a moment to answer before going on. */
async function settle(run: Run): Promise<void> {
  const until = Math.min(run.request.deadline, Date.now() + SETTLE_AFTER_INPUT_MS);
  await run.monitor.waitForReady(run.idleMs, until);
}

/** Clicks the first `max` matches in turn with the mouse, each scrolled into view first. */
async function click(run: Run, selector: string, max: number): Promise<void> {
  for (let i = 0; i < max; i++) {
    const found = (await run.monitor.evaluate(centerExpression(selector, i))) as number[] | 'invalid' | null;
    if (found === 'invalid')
      throw new ActionError(`${JSON.stringify(selector)} is not a selector the browser takes`);
    if (!found) {
      if (i > 0) return;
      throw new ActionError(`no element matches ${JSON.stringify(selector)}`);
    }
    const [x, y] = found;
    if (x < 0) throw new ActionError(`match ${i} of ${JSON.stringify(selector)} is not visible`);
    const mouse = { x, y, button: 'left', clickCount: 1 };
    await run.monitor.cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
    await run.monitor.cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...mouse });
    await run.monitor.cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...mouse });
  }
}

/** The `index`th match scrolled to the middle of the viewport; its centre, [-1, -1] if it has no box. */
const centerExpression = (selector: string, index: number) => `(() => {
  ${findFunction(selector)}
  const el = find(${index});
  if (!el) return null;
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 ? [r.left + r.width / 2, r.top + r.height / 2] : [-1, -1];
})()`;

/**
 * `amount` pixels, a screenful by default, or `bottom`: as far as the page goes that way. Resolves
 * after the next frame, in which the page's scroll listeners run (an infinite feed asks for more
 * there), so the settling that follows sees what they start; at most 200 ms (a hidden page draws
 * no frames). Our world's own timers: the page cannot stall them.
 */
const scrollExpression = (direction: 'up' | 'down', amount: number | 'bottom' | undefined) => `(async () => {
  const sign = ${direction === 'down' ? 1 : -1};
  const el = document.scrollingElement || document.documentElement;
  const by = ${amount === 'bottom' ? 'el.scrollHeight' : (amount ?? 'innerHeight')};
  window.scrollTo({ top: scrollY + sign * by, behavior: 'instant' });
  await new Promise((done) => {
    requestAnimationFrame(() => setTimeout(done, 0));
    setTimeout(done, 200);
  });
})()`;

function charKey(ch: string): { key: string; code?: string; keyCode: number; text: string } {
  const upper = ch.toUpperCase();
  const keyCode = /^[A-Z0-9]$/.test(upper) ? upper.charCodeAt(0) : 0;
  return { key: ch, keyCode, text: ch };
}

/** A key pressed and released; a key with text types it (keydown, keypress, input, keyup). */
async function key(run: Run, k: { key: string; code?: string; keyCode: number; text?: string }) {
  const base = { key: k.key, code: k.code, windowsVirtualKeyCode: k.keyCode };
  const down = k.text ? { type: 'keyDown', text: k.text, unmodifiedText: k.text } : { type: 'rawKeyDown' };
  await run.monitor.cdp.send('Input.dispatchKeyEvent', { ...base, ...down });
  await run.monitor.cdp.send('Input.dispatchKeyEvent', { ...base, type: 'keyUp' });
}

/** The page from its top, as tall as it is up to MAX_SCREENSHOT_HEIGHT, the viewport's width at most. */
export async function fullPageScreenshot(tab: BrowserTab, monitor: PageMonitor, mobile: boolean) {
  // The page's own width is not bounded: the picture is the viewport's width at most.
  const size = await monitor.pageSize();
  const width = Math.min(size.width, browserProfile(mobile).viewport.width);
  return tab.screenshot({ width, height: Math.min(size.height, MAX_SCREENSHOT_HEIGHT) });
}

async function screenshot(run: Run, fullPage: boolean): Promise<void> {
  let png: string;
  if (fullPage) {
    png = (await fullPageScreenshot(run.tab, run.monitor, run.request.options.mobile)).toString('base64');
  } else {
    png = ((await run.monitor.cdp.send('Page.captureScreenshot', { format: 'png' })) as { data: string })
      .data;
  }
  run.screenshotBytes += Buffer.byteLength(png, 'base64');
  if (run.screenshotBytes > run.limits.maxScreenshotBytes) {
    throw new ActionError(`the screenshots add up to more than ${run.limits.maxScreenshotBytes} bytes`);
  }
  run.results.screenshots.push(png);
}

/**
 * Runs the script in the page's own world, as the body of an async function. Its value is made
 * JSON in the page and measured there, so a huge value never crosses into the worker.
 */
async function execute(run: Run, script: string): Promise<{ type: JsonType; value: unknown }> {
  const expression = `(async () => {
    const value = await (async function () {\n${script}\n}).call(window);
    const json = value === undefined ? 'null' : JSON.stringify(value);
    if (typeof json !== 'string') return 'null';
    if (json.length > ${MAX_RETURN_CHARS}) throw new Error('its return value is more than ${MAX_RETURN_CHARS} characters of JSON');
    return json;
  })()`;
  const { result, exceptionDetails } = (await run.monitor.cdp.send('Runtime.evaluate', {
    expression,
    awaitPromise: true,
    returnByValue: true,
    userGesture: true,
  })) as {
    result: { value?: unknown };
    exceptionDetails?: { text: string; exception?: { description?: string } };
  };
  if (exceptionDetails) {
    const description = exceptionDetails.exception?.description ?? exceptionDetails.text;
    throw new ActionError(`the script threw: ${description.split('\n')[0]}`);
  }
  let value: unknown;
  try {
    value = typeof result.value === 'string' ? JSON.parse(result.value) : null;
  } catch {
    throw new ActionError('the script returned no JSON (the page replaced JSON.stringify)');
  }
  const type: JsonType =
    value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as JsonType);
  return { type, value };
}
