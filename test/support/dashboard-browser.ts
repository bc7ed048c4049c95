import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { type Browser, type Page, chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../fixtures/chromium';
import type { ApiHarness } from './api-harness';

/** The full `chromium` drives the dashboard tests (the headless shell, the worker's browser, has no UI). */
export const DASHBOARD_BROWSER = '/usr/bin/chromium';

/**
 * Where the dashboard tests write their screenshots: docs/images/ only when asked
 * (DASHBOARD_SCREENSHOTS=1), so a test run leaves the checkout clean; otherwise a temporary folder,
 * taken all the same.
 */
export function screenshotsFolder(): string {
  if (process.env.DASHBOARD_SCREENSHOTS !== '1')
    return mkdtempSync(path.join(os.tmpdir(), 'dashboard-shots-'));
  const docs = path.join(__dirname, '../../docs/images');
  mkdirSync(docs, { recursive: true });
  return docs;
}

/** A screen's nav label and the heading it shows, in the nav's order. */
export const DASHBOARD_SCREENS = {
  customer: [
    ['Usage', 'Usage'],
    ['Playground', 'Playground'],
    ['API keys', 'API keys'],
    ['Settings › Webhooks', 'Settings › Webhooks'],
    ['Deliveries', 'Webhook deliveries'],
    ['Dead letters', 'Dead letters'],
    ['Jobs', 'Jobs'],
  ],
  admin: [
    ['Accounts', 'Accounts'],
    ['Jobs', 'Jobs'],
    ['Deliveries', 'Webhook deliveries'],
    ['Dead letters', 'Dead letters'],
    ['Plans', 'Plans'],
    ['Audit log', 'Audit log'],
  ],
};

/** The page's heading: every screen has one h1. */
export const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** Goes to a screen by its link in the nav. */
export const nav = (page: Page, name: string) =>
  page.getByRole('navigation').getByRole('link', { name, exact: true }).click();

/** Signs in on the dashboard at `base` with `key`, as a person would. */
export async function signIn(page: Page, base: string, key: string): Promise<void> {
  await page.goto(`${base}/dashboard/`);
  await page.getByLabel('API key or admin key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Signs out and waits for the sign-in form. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('API key or admin key').waitFor();
}

/** The API served on loopback, and the dashboard's browser with one page on it. */
export interface OpenDashboard {
  base: string;
  browser: Browser;
  page: Page;
  /** The page's console errors and uncaught exceptions, as they come. */
  consoleErrors: string[];
}

/**
 * Serves `api` on a loopback port and opens a page at the size the screenshots use; `clipboard`
 * grants the page the clipboard (copy buttons).
 */
export async function openDashboard(api: ApiHarness, { clipboard = false } = {}): Promise<OpenDashboard> {
  await api.app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: DASHBOARD_BROWSER, args: [...CHROMIUM_FLAGS] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  if (clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  return { base, browser, page, consoleErrors };
}
