// The bare loop's readiness rule: the service's own (libs/rendering's readiness.ts, at the worker's
// default RENDER_IDLE_MS and RENDER_SETTLE_MAX_MS) without the service's machinery. The init script
// runs in every document; after DOMContentLoaded one evaluation resolves once the page is quiet by
// its own count, then the network's view must agree (no request in flight, none ended within the
// quiet window: a script chunk is not a fetch), asking the page again if it does not; all within
// the cap, as PageMonitor.waitForReady does.
import type { CDPSession, Page } from 'playwright-core';
import { WorkerEnv } from '@app/config';
import { readinessExpression, readinessInitScript } from '@app/rendering';

const { RENDER_IDLE_MS: QUIET_MS, RENDER_SETTLE_MAX_MS: CAP_MS } = new WorkerEnv();
const POLL_MS = 50;
/** Requests that stay open by design, left out as the service leaves them out. */
const LONG_LIVED = new Set(['EventSource', 'WebSocket']);

interface RequestEvent {
  requestId: string;
  type?: string;
  request: { url: string };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One tab's readiness: attach() once, then navigate() page after page. */
export class BareReadiness {
  private readonly inflight = new Set<string>();
  private lastActivity = Date.now();

  private constructor(private readonly cdp: CDPSession) {
    cdp.on('Network.requestWillBeSent', (e: RequestEvent) => {
      this.lastActivity = Date.now();
      if (!e.request.url.startsWith('data:') && !LONG_LIVED.has(e.type ?? '')) this.inflight.add(e.requestId);
    });
    const done = (e: { requestId: string }) => {
      this.lastActivity = Date.now();
      this.inflight.delete(e.requestId);
    };
    cdp.on('Network.loadingFinished', done);
    cdp.on('Network.loadingFailed', done);
  }

  /** `cdp`: the tab's own session, with Network enabled; the script goes in as the service's does. */
  static async attach(cdp: CDPSession): Promise<BareReadiness> {
    const readiness = new BareReadiness(cdp);
    // A session's scripts run in new documents only with its Page domain on (the monitor's is).
    await Promise.all([
      cdp.send('Page.enable'),
      cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: readinessInitScript() }),
    ]);
    return readiness;
  }

  /** Loads `url` and resolves once it is ready, or at the cap. */
  async navigate(page: Page, url: string): Promise<void> {
    this.inflight.clear();
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 30_000 });
    const until = Date.now() + CAP_MS;
    for (;;) {
      const left = until - Date.now();
      if (left <= 0) return;
      const { result } = await this.cdp.send('Runtime.evaluate', {
        expression: readinessExpression(QUIET_MS, left),
        awaitPromise: true,
        returnByValue: true,
      });
      if (result.value === false) return;
      if (this.networkQuiet()) return;
      while (!this.networkQuiet()) {
        if (Date.now() >= until) return;
        await sleep(Math.min(POLL_MS, until - Date.now()));
      }
    }
  }

  private networkQuiet(): boolean {
    return this.inflight.size === 0 && Date.now() - this.lastActivity >= QUIET_MS;
  }
}
