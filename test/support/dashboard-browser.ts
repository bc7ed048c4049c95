import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';

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
