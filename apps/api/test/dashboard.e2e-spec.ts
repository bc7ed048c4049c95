import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
// Web-first assertions (they wait for the page); jest's expect stays for plain values.
import { expect as expectPage } from 'playwright/test';
import { DataSource } from 'typeorm';
import { WebhookDeliveries } from '@app/webhooks';
import { DASHBOARD_ROOT } from '../src/dashboard/dashboard';
import { HttpsReceiver, makeTestCertificate, startHttpsReceiver } from '../../../test/fixtures/https';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';
import { insertEndedJob, insertUsageDays, pageResult } from '../../../test/support/ended-jobs';
import {
  DASHBOARD_SCREENS,
  openDashboard,
  heading as headingOf,
  nav as navTo,
  screenshotsFolder,
  signIn as signInAt,
  signOut as signOutOf,
} from '../../../test/support/dashboard-browser';

/** Screenshots: see screenshotsFolder(). */
const IMAGES = screenshotsFolder();
/** A first try and two retries, then dead letter: seconds, not hours. */
const SCHEDULE = '100ms,200ms';
/** Every script of the dashboard as the browser asks for it: the entry and the modules it imports. */
const SCRIPTS = readdirSync(DASHBOARD_ROOT, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.js'))
  .map((f) => `/dashboard/${f.split(path.sep).join('/')}`)
  .sort();
/**
 * The dashboard in a real browser, end to end: the API serves the pages, the real worker delivers
 * webhooks to a local HTTPS receiver that fails until it is "fixed". Screenshots of the main pages
 * are the README's (see IMAGES).
 */
describe('dashboard (Chromium)', () => {
  const certificate = makeTestCertificate();
  let api: ApiHarness;
  let worker: WorkerHarness;
  let db: DataSource;
  let receiver: HttpsReceiver;
  let browser: Browser;
  let page: Page;
  let base: string;
  let account: TestAccount;
  let other: TestAccount;
  let adminKey: string;
  let deadJob: string;
  let deadDelivery: string;
  let consoleErrors: string[];
  /** The dashboard's own files the browser fetched, and those it could not. */
  const fetched = new Set<string>();
  const unfetched: string[] = [];

  const shot = (name: string) => page.screenshot({ path: path.join(IMAGES, `${name}.png`), fullPage: true });
  const heading = () => headingOf(page);
  const nav = (name: string) => navTo(page, name);
  const signIn = (key: string) => signInAt(page, base, key);

  const signOut = () => signOutOf(page);

  async function deliveryStatus(id: string): Promise<string> {
    const res = await api
      .http()
      .get(`/v1/webhooks/deliveries/${id}`)
      .set('Authorization', `Bearer ${account.liveKey}`);
    return res.body.status;
  }

  beforeAll(async () => {
    api = await startApi();
    worker = await startWorker({
      WORKER_QUEUES: 'webhooks',
      WEBHOOK_RETRY_SCHEDULE: SCHEDULE,
      WEBHOOK_TIMEOUT_MS: '2000',
      NODE_EXTRA_CA_CERTS: certificate.caPath,
    });
    db = api.app.get(DataSource);
    receiver = await startHttpsReceiver({ certificate, behaviour: { status: 503, body: 'receiver down' } });
    [account, other] = [await createAccount(api), await createAccount(api)];
    adminKey = (
      await api
        .admin(api.http().post('/admin/v1/admins'))
        .send({ email: `qa-${account.id}@example.test` })
        .expect(201)
    ).body.key.key;

    // Thirty days of finished pages, so the usage page has something to draw.
    await insertUsageDays(db, account.id, 30);
    for (let i = 0; i < 3; i++)
      await insertEndedJob(db, {
        accountId: account.id,
        webhookUrl: null,
        type: 'batch',
        pages: [pageResult(0), pageResult(1)],
      });

    // A job whose webhook dies: the receiver answers 503 to the first try and both retries.
    deadJob = await insertEndedJob(db, { accountId: account.id, webhookUrl: receiver.url });
    deadDelivery = (await worker.app.get(WebhookDeliveries).jobEnded(deadJob))!;
    await receiver.waitForRequests(3);
    for (let i = 0; (await deliveryStatus(deadDelivery)) !== 'failed'; i++) {
      if (i > 200) throw new Error('the delivery never became a dead letter');
      await new Promise((r) => setTimeout(r, 50));
    }

    ({ base, browser, page, consoleErrors } = await openDashboard(api));
    page.on('dialog', (d) => void d.accept());
    page.on('response', (r) => {
      const { pathname } = new URL(r.url());
      if (!pathname.startsWith('/dashboard/')) return;
      if (r.status() < 400) fetched.add(pathname);
      else unfetched.push(`${r.status()} ${pathname}`);
    });
    page.on('requestfailed', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith('/dashboard/')) unfetched.push(`${r.failure()?.errorText} ${pathname}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await worker?.close();
    await api?.close();
  });

  it('serves the pages with a strict CSP and safe headers', async () => {
    const res = await fetch(`${base}/dashboard/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await res.text()).toContain('<script type="module" src="app.js"></script>');
    // A module served as anything but JavaScript is refused by the browser.
    expect(SCRIPTS.length).toBeGreaterThan(1);
    for (const script of SCRIPTS) {
      const served = await fetch(`${base}${script}`);
      expect([script, served.status]).toEqual([script, 200]);
      expect(served.headers.get('content-type')).toMatch(/^text\/javascript|^application\/javascript/);
      expect(served.headers.get('content-security-policy')).toBe(csp);
    }
    expect((await fetch(`${base}/dashboard/../package.json`)).status).toBe(404);
  });

  it('GET /v1/usage gives the daily series the chart draws, per environment, oldest first', async () => {
    const get = (q: string, key = account.liveKey) =>
      api.http().get(`/v1/usage${q}`).set('Authorization', `Bearer ${key}`);
    const today = new Date().toISOString().slice(0, 10);
    const three = (await get('?days=3').expect(200)).body.data;
    expect(three).toHaveLength(3);
    expect(three[2]).toEqual({ day: today, pages: 40, succeeded: 40, failed: 0 });
    expect(three[1]).toMatchObject({ pages: 77, succeeded: 76, failed: 1 });
    expect((await get('').expect(200)).body.data).toHaveLength(30);
    const sandbox = (await get('?days=2', account.testKey).expect(200)).body.data;
    expect(sandbox.map((d: { pages: number }) => d.pages)).toEqual([0, 0]);
    for (const bad of ['?days=0', '?days=91', '?days=x'])
      expect((await get(bad).expect(400)).body.errors[0].field).toBe('days');
  });

  it('refuses a wrong key on the sign-in form', async () => {
    await page.goto(`${base}/dashboard/`);
    await page.getByLabel('API key or admin key').fill('osk_live_not-a-real-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectPage(page.getByRole('alert').first()).toHaveText('That key was not accepted.');
  });

  it('a customer signs in and sees usage against the plan, with the 30-day chart', async () => {
    await signIn(account.liveKey);
    await expectPage(heading()).toHaveText('Usage');
    const month = await page.getByTestId('month').textContent();
    const me = await api.http().get('/v1/me').set('Authorization', `Bearer ${account.liveKey}`);
    expect(month).toContain(me.body.usage.requests_this_month.toLocaleString('en'));
    expect(month).toContain('of 50,000');
    expect(await page.locator('svg.chart rect').count()).toBe(60);
    await expectPage(page.locator('#who')).toContainText(account.email);
    // The key lives in this tab's session storage only: never in the URL.
    expect(await page.evaluate(() => sessionStorage.getItem('scraper.dashboard.key'))).toBe(account.liveKey);
    expect(page.url()).not.toContain(account.liveKey.slice(9));
    await shot('dashboard-usage');
  });

  it('creates a key (shown once) and lists keys by prefix and last 4', async () => {
    await nav('API keys');
    await expectPage(heading()).toHaveText('API keys');
    await page.getByLabel('New key name (optional)').fill('ci runner');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent())!;
    expect(key).toMatch(/^osk_live_/);
    await expectPage(
      page.getByRole('cell', { name: `${key.slice(0, 13)}…${key.slice(-4)}`, exact: true }),
    ).toBeVisible();
    await shot('dashboard-keys');
    await page.getByRole('button', { name: `Revoke key ${key.slice(0, 13)}…${key.slice(-4)}` }).click();
    await expectPage(page.getByRole('row', { name: /ci runner/ })).toContainText('revoked');
    await api.http().get('/v1/me').set('Authorization', `Bearer ${key}`).expect(401);
  });

  it('reveals the webhook secret on click and rotates it (old one signing 24 h, or expired now)', async () => {
    await nav('Settings › Webhooks');
    await expectPage(heading()).toHaveText('Settings › Webhooks');
    await expectPage(page.getByTestId('secret')).toHaveCount(0);
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    const before = (await page.getByTestId('secret').textContent())!;
    expect(before).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await expectPage(page.getByTestId('secret')).not.toHaveText(before);
    await expectPage(page.getByTestId('previous-expires')).toContainText('UTC');
    await page.getByRole('button', { name: 'Rotate and expire the old secret now' }).click();
    await expectPage(page.getByTestId('previous-expires')).toHaveText('no previous secret signs');
    const shown = await page.getByTestId('secret').textContent();
    const api_ = await api
      .http()
      .get('/v1/webhooks/secret')
      .set('Authorization', `Bearer ${account.liveKey}`);
    expect(shown).toBe(api_.body.secret);
    await page.getByRole('button', { name: 'Hide' }).click();
    await shot('dashboard-webhooks');
  });

  it('finds the dead-lettered delivery, reads its attempts, replays it after the receiver recovers', async () => {
    await nav('Dead letters');
    await expectPage(heading()).toHaveText('Dead letters');
    const row = page.locator(`tr[data-delivery="${deadDelivery}"]`);
    await expectPage(row).toContainText('failed');
    await shot('dashboard-dead-letters');
    await row.getByRole('link', { name: deadDelivery }).click();
    await expectPage(heading()).toHaveText(`Delivery ${deadDelivery}`);
    const attempts = page.getByRole('table').locator('tbody tr');
    await expectPage(attempts).toHaveCount(3);
    await expectPage(attempts.first()).toContainText('503');
    await expectPage(attempts.first()).toContainText('ms');
    await expectPage(page.locator('pre')).toContainText(deadJob);

    receiver.setBehaviour(200);
    await page.getByRole('button', { name: 'Replay' }).click();
    // The page looks again while the delivery is pending: it settles by itself.
    await expectPage(page.locator('[data-field="status"]')).toHaveText('succeeded', { timeout: 15_000 });
    await expectPage(attempts).toHaveCount(4);
    await expectPage(attempts.last()).toContainText('replay');
    await expectPage(attempts.last()).toContainText('200');
    expect(receiver.requests.at(-1)!.body).toContain(deadJob);
    expect(await deliveryStatus(deadDelivery)).toBe('succeeded');
    await shot('dashboard-delivery');
  });

  it('lists the jobs with status and progress', async () => {
    await nav('Jobs');
    await expectPage(heading()).toHaveText('Jobs');
    await expectPage(page.getByRole('progressbar', { name: '2 of 2 pages done' })).toHaveCount(3);
    await shot('dashboard-jobs');
  });

  it("shows a job's page results with what their actions brought back, screenshots as images", async () => {
    const png = (await page.screenshot({ clip: { x: 0, y: 0, width: 320, height: 120 } })).toString('base64');
    // Markup in results is text on the page, never run: these would set window.pwned if it were.
    const hostile = '<img src=x onerror="window.pwned=1"><script>window.pwned=1</script>';
    const job = await insertEndedJob(db, {
      accountId: account.id,
      webhookUrl: null,
      type: 'crawl',
      pages: [
        pageResult(0, {
          actions: {
            screenshots: [png, png],
            javascript_returns: [{ type: 'object', value: { n: 2, html: hostile } }],
            scrapes: [{ url: 'https://site.test/page/0', html: hostile }],
          },
        }),
        pageResult(1, {
          markdown: undefined,
          error: { code: 'ACTION_FAILED', message: 'actions[1] (click) failed: no element matches "#more"' },
          actions: { screenshots: [png], javascript_returns: [], scrapes: [] },
        }),
        pageResult(2),
      ],
    });
    // Jobs is the page shown: away and back lists the new job.
    await nav('Usage');
    await nav('Jobs');
    await page.getByRole('link', { name: job }).click();
    await expectPage(heading()).toHaveText(`Job ${job}`);

    const first = page.locator('[data-page="0"]');
    const images = first.getByRole('img');
    await expectPage(images).toHaveCount(2);
    for (const img of await images.all()) {
      await expectPage(img).toHaveJSProperty('complete', true);
      // Decoded under the dashboard's CSP: the 320 × 120 PNG the API holds.
      expect(await img.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight])).toEqual([
        320, 120,
      ]);
    }
    await expectPage(first.getByLabel('Script 1 return of page 0')).toContainText('"n": 2');
    await first.getByText('Snapshot 1: https://site.test/page/0').click();
    await expectPage(first.getByLabel('Snapshot 1 of page 0')).toHaveText(hostile);

    const failed = page.locator('[data-page="1"]');
    await expectPage(failed.locator('[data-field="error"]')).toContainText(
      'ACTION_FAILED: actions[1] (click)',
    );
    await expectPage(failed.getByRole('img', { name: 'Action screenshot 1 of page 1' })).toBeVisible();
    await expectPage(page.locator('[data-page="2"]').getByText('Actions')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await shot('dashboard-job');
  });

  it('another customer cannot see that delivery, in the browser or on the API', async () => {
    await signOut();
    await signIn(other.liveKey);
    await page.goto(`${base}/dashboard/#/deliveries/${deadDelivery}`);
    await expectPage(page.locator('#page-error')).toHaveText('Delivery not found');
    await nav('Deliveries');
    await expectPage(page.getByText('No deliveries match.')).toBeVisible();
    await api
      .http()
      .get(`/v1/webhooks/deliveries/${deadDelivery}`)
      .set('Authorization', `Bearer ${other.liveKey}`)
      .expect(404);
  });

  it('an admin finds the delivery across accounts, sees the account, plans and the audit log', async () => {
    await signOut();
    await signIn(adminKey);
    await expectPage(heading()).toHaveText('Accounts');
    await page.getByLabel('E-mail contains').fill(account.email);
    await page.getByRole('button', { name: 'Search' }).click();
    await expectPage(page.getByRole('link', { name: account.email })).toBeVisible();
    await shot('dashboard-admin-accounts');

    await nav('Deliveries');
    const row = page.locator(`tr[data-delivery="${deadDelivery}"]`);
    await expectPage(row).toContainText(account.id);
    await expectPage(row).toContainText('succeeded');
    await shot('dashboard-admin-deliveries');
    await row.getByRole('link', { name: deadDelivery }).click();
    await expectPage(page.locator('[data-field="account"]')).toHaveText(account.id);

    await page.locator('[data-field="account"] a').click();
    await expectPage(heading()).toHaveText(account.email);
    await page.getByLabel('Plan', { exact: true }).selectOption('pro');
    await page.getByRole('button', { name: 'Change plan' }).click();
    await expectPage(page.locator('dd').filter({ hasText: /^pro$/ })).toBeVisible();

    await nav('Plans');
    await expectPage(page.getByRole('heading', { name: 'enterprise' })).toBeVisible();

    await nav('Audit log');
    await expectPage(heading()).toHaveText('Audit log');
    await expectPage(
      page.getByRole('row', { name: new RegExp(`account\\.update ${account.id}`) }),
    ).toBeVisible();
    await shot('dashboard-admin-audit');
  });

  it('renders every screen of both views with its heading, not an error', async () => {
    for (const [key, screens] of [
      [adminKey, DASHBOARD_SCREENS.admin],
      [account.liveKey, DASHBOARD_SCREENS.customer],
    ] as const) {
      await signOut();
      await signIn(key);
      const links = page.getByRole('navigation').getByRole('link');
      await expectPage(links).toHaveText(screens.map(([label]) => label));
      for (const [label, title] of screens) {
        await nav(label);
        await expectPage(heading()).toHaveText(title);
        // A screen that failed shows only its heading and the error line.
        await expectPage(page.locator('#page-error')).toBeEmpty();
        expect(await page.locator('#view > *').count()).toBeGreaterThan(2);
      }
    }
  });

  it('never logged a key and met no script or CSP error', () => {
    const logs = api.logs.join('');
    for (const key of [account.liveKey, other.liveKey, adminKey]) expect(logs).not.toContain(key);
    expect(consoleErrors.filter((e) => !/401|404|Failed to load resource/.test(e))).toEqual([]);
    // Every module loaded: none is missing, refused or left out of the imports.
    expect(unfetched).toEqual([]);
    expect([...fetched].filter((f) => f.endsWith('.js')).sort()).toEqual(SCRIPTS);
  });
});
