import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
// Web-first assertions (they wait for the page); jest's expect stays for plain values.
import { expect as expectPage } from 'playwright/test';
import { FixtureSite, startFixtureSite } from '../../../test/fixtures/site/fixture-site';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import {
  openDashboard,
  heading,
  nav,
  screenshotsFolder,
  signIn,
} from '../../../test/support/dashboard-browser';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';

/** A page whose text is markup: in the playground it must stay text, never run or load. */
const HOSTILE_PAGE = `<!doctype html><html><head><title>Markup as text</title></head><body><main>
<h1>Markup as text</h1>
<p>&lt;script&gt;window.pwned=1&lt;/script&gt; and &lt;img src=x onerror="window.pwned=2"&gt;</p>
<p><a href="javascript:window.pwned=3">a script link</a> and <img src="x" onerror="window.pwned=5"></p>
<pre><code>&lt;iframe src="javascript:window.pwned=4"&gt;&lt;/iframe&gt;</code></pre>
</main></body></html>`;

/** What the dashboard posted to /v1/scrape: the Authorization header and the JSON body. */
interface Sent {
  authorization: string;
  body: unknown;
}

/** The JSON body in the curl snippet (`--data '…'`) and in the JavaScript one (`JSON.stringify(…)`). */
const curlBody = (snippet: string) =>
  JSON.parse(/--data '([\s\S]*)'$/.exec(snippet)![1].replaceAll(`'\\''`, "'"));
const fetchBody = (snippet: string) => JSON.parse(/JSON\.stringify\(([\s\S]*)\),\n\}\);/.exec(snippet)![1]);

/**
 * The dashboard's playground in Chromium against the real API and worker: one sync scrape of the
 * fixture site's article with the signed-in key, one of a page of markup-as-text with the account's
 * other key, and a form that must not send. Loopback only.
 */
describe('dashboard playground (Chromium)', () => {
  let site: FixtureSite;
  let hostile: Server;
  let hostileUrl: string;
  let api: ApiHarness;
  let worker: WorkerHarness;
  let browser: Browser;
  let page: Page;
  let base: string;
  let account: TestAccount;
  const sent: Sent[] = [];
  let consoleErrors: string[];
  const images = screenshotsFolder();

  const view = () => page.getByTestId('playground-result');
  const field = (name: string) => view().locator(`[data-field="${name}"]`);
  const rendered = () => page.getByTestId('markdown-rendered');
  const snippets = async () => ({
    curl: (await page.getByTestId('curl').textContent())!,
    js: (await page.getByTestId('javascript').textContent())!,
  });
  /** Runs the form and waits for the page result the API gave the browser. */
  async function run(): Promise<Record<string, unknown>> {
    const answer = page.waitForResponse((r) => r.url().endsWith('/v1/scrape'));
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const res = await answer;
    await expectPage(view().getByRole('heading', { name: 'Metadata' })).toBeVisible();
    return (await res.json()) as Record<string, unknown>;
  }

  beforeAll(async () => {
    site = await startFixtureSite();
    hostile = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(HOSTILE_PAGE),
    );
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/markup`;
    api = await startApi();
    worker = await startWorker();
    account = await createAccount(api);
    ({ base, browser, page, consoleErrors } = await openDashboard(api, { clipboard: true }));
    // Any CSP violation is a failure: collected in the page, read at the end.
    await page.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { cspViolations: seen });
      document.addEventListener('securitypolicyviolation', (e) =>
        seen.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    page.on('request', (r: Request) => {
      if (!r.url().endsWith('/v1/scrape')) return;
      sent.push({ authorization: r.headers()['authorization'], body: r.postDataJSON() });
    });
  });

  afterAll(async () => {
    await browser?.close();
    await worker?.close();
    await api?.close();
    await new Promise((r) => hostile?.close(r));
    await site?.close();
  });

  it('renders markdown as elements from text, never from markup', async () => {
    await signIn(page, base, account.liveKey);
    const markdown = [
      '# Title with `code`',
      '',
      'A *soft* and **strong** [web link](https://example.test/a_(b) "Tip") and [a trap](javascript:alert(1)).',
      '',
      '-   one',
      '-   two',
      '    1.  nested',
      '',
      '| a | b \\| c |',
      '| --- | --- |',
      '| <b>x</b> | ![data](data:image/png;base64,iVBORw0KGgo=) |',
      '',
      '```js',
      '<script>window.pwned = 1</script>',
      '```',
      '',
      '> quoted ![remote](https://example.test/i.png)',
    ].join('\n');
    // A string, so the compiler leaves import() to the browser (it would turn it into require()).
    const html = await page.evaluate<string>(`(async () => {
      const { renderMarkdown } = await import('/dashboard/core/markdown.js');
      const box = document.createElement('div');
      box.append(...renderMarkdown(${JSON.stringify(markdown)}));
      return box.innerHTML;
    })()`);
    const external = 'target="_blank" rel="noopener noreferrer nofollow"';
    expect(html).toBe(
      [
        '<h1>Title with <code>code</code></h1>',
        `<p>A <em>soft</em> and <strong>strong</strong> <a href="https://example.test/a_(b)" title="Tip" ${external}>web link</a>`,
        ' and <span class="unlinked" title="Not a web link: javascript:alert(1)">a trap</span>.</p>',
        '<ul><li>one</li><li>two<ol><li>nested</li></ol></li></ul>',
        '<div class="scroll"><table><thead><tr><th scope="col">a</th><th scope="col">b | c</th></tr></thead>',
        '<tbody><tr><td>&lt;b&gt;x&lt;/b&gt;</td><td><img src="data:image/png;base64,iVBORw0KGgo=" alt="data"></td></tr></tbody></table></div>',
        '<pre tabindex="0"><code data-language="js">&lt;script&gt;window.pwned = 1&lt;/script&gt;</code></pre>',
        '<blockquote><p>quoted <a href="https://example.test/i.png" class="remote-image" title="Not loaded here: the dashboard loads only its own and data: images" ',
        `${external}>[image: remote]</a></p></blockquote>`,
      ].join(''),
    );
  });

  it('renders the first 500,000 characters of a longer markdown, whole lines, and says so', async () => {
    const rendered = await page.evaluate<string[]>(`(async () => {
      const { resultView } = await import('/dashboard/screens/playground-result.js');
      const line = 'word '.repeat(19) + 'end';
      const markdown = Array.from({ length: 6000 }, () => line).join('\\n\\n');
      const box = document.createElement('div');
      box.append(...resultView({ url: 'x', markdown, metadata: {} }, 1, 'sandbox').flat().filter(Boolean));
      const md = box.querySelector('[data-testid="markdown-rendered"]');
      return [md.querySelectorAll('p').length, md.lastElementChild.textContent, box.querySelector('.hint').textContent];
    })()`);
    // 98 characters and a blank line each: 5,000 paragraphs fit, the last one whole.
    expect(rendered[0]).toBe(5000);
    expect(rendered[1]).toMatch(/ end$/);
    expect(rendered[2]).toContain('Rendered: the first 499,999 of 599,998 characters');
  });

  it('runs a scrape with the signed-in key: markdown rendered and raw, screenshot, metadata, timings, snippets', async () => {
    await nav(page, 'Playground');
    await expectPage(heading(page)).toHaveText('Playground');
    const url = `${site.origin}/static/article/feature`;
    await page.getByLabel('URL', { exact: true }).fill(url);
    const result = await run();
    expect(sent).toEqual([{ authorization: `Bearer ${account.liveKey}`, body: expect.any(Object) }]);
    expect(sent[0].body).toEqual({
      url,
      formats: ['markdown', 'screenshot'],
      only_main_content: true,
      render: 'auto',
      engine: 'playwright',
    });

    const markdown = result.markdown as string;
    expect(markdown).toMatch(/^# \S/);
    await expectPage(page.getByLabel('Markdown raw')).toHaveText(markdown);
    const title = markdown.split('\n', 1)[0].slice(2);
    await expectPage(rendered().locator('h1')).toHaveText(title);
    // The article's code blocks, table, nested lists and links, as elements.
    for (const [selector, least] of [
      ['pre code', 2],
      ['table td', 2],
      ['li li', 1],
      ['a', 3],
    ] as const)
      expect(await rendered().locator(selector).count()).toBeGreaterThanOrEqual(least);
    for (const href of await rendered()
      .locator('a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href'))))
      expect(href).toMatch(/^https?:\/\//);
    // Its images are remote: links, not loaded.
    await expectPage(rendered().locator('img')).toHaveCount(0);
    expect(await rendered().locator('a.remote-image').count()).toBeGreaterThan(0);

    const shot = view().getByRole('img', { name: `Screenshot of ${url}` });
    await expectPage(shot).toHaveJSProperty('complete', true);
    // Decoded under the CSP: the PNG the API sent (its width is in its header, bytes 16 to 19).
    const width = Buffer.from(result.screenshot as string, 'base64').readUInt32BE(16);
    expect(await shot.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(width);

    const metadata = result.metadata as Record<string, string>;
    await expectPage(field('title')).toHaveText(metadata.title);
    await expectPage(field('engine')).toHaveText('playwright');
    await expectPage(field('environment')).toHaveText('production');
    await expectPage(field('status code')).toHaveText('200');
    const timings = result.timings as { total_ms: number; render_ms: number };
    await expectPage(field('total')).toContainText(`${timings.total_ms.toLocaleString('en')} ms`);
    await expectPage(field('render')).toContainText(`${timings.render_ms.toLocaleString('en')} ms`);
    await expectPage(field('round trip')).toHaveText(/^[\d,]+ ms /);

    const { curl, js } = await snippets();
    expect(curlBody(curl)).toEqual(sent[0].body);
    expect(fetchBody(js)).toEqual(sent[0].body);
    expect(curl).toContain(`'${base}/v1/scrape'`);
    expect(curl).toContain('Authorization: Bearer $SCRAPER_API_KEY');
    expect(js).toContain('process.env.SCRAPER_API_KEY');
    for (const text of [curl, js]) expect(text).not.toContain(account.liveKey.slice(9, 30));
    await page.getByRole('button', { name: 'Copy curl' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(curl);
    await page.screenshot({ path: path.join(images, 'dashboard-playground.png'), fullPage: true });
  });

  it("keeps a page's markup text when run with the account's other (sandbox) key", async () => {
    await page.getByLabel('URL', { exact: true }).fill(hostileUrl);
    await page.getByLabel('screenshot', { exact: true }).uncheck();
    await page.getByLabel('Render', { exact: true }).selectOption('http');
    await page.getByLabel('Only main content').uncheck();
    await page.getByLabel('Run with').selectOption('other');
    await page.getByLabel(/^Other key/).fill(account.testKey);
    await expectPage(page.getByText('set it to your sandbox key (osk_test_…)')).toBeVisible();
    const result = await run();
    expect(sent[1]).toEqual({
      authorization: `Bearer ${account.testKey}`,
      body: { url: hostileUrl, formats: ['markdown'], only_main_content: false, render: 'http' },
    });
    await expectPage(field('environment')).toHaveText('sandbox');

    const markdown = result.markdown as string;
    expect(markdown).toContain('<script>window.pwned=1</script>');
    await expectPage(page.getByLabel('Markdown raw')).toHaveText(markdown);
    await expectPage(rendered()).toContainText('<script>window.pwned=1</script>');
    await expectPage(rendered()).toContainText('<img src=x onerror=');
    await expectPage(rendered().locator('script, img, iframe, [onerror]')).toHaveCount(0);
    await expectPage(page.locator('[href^="javascript:"]')).toHaveCount(0);
    await expectPage(rendered()).toContainText('<iframe src="javascript:window.pwned=4"></iframe>');
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    for (const text of Object.values(await snippets()))
      expect(text).not.toContain(account.testKey.slice(9, 30));
    // The other key ran this page only: the session is still the signed-in key's.
    expect(await page.evaluate(() => sessionStorage.getItem('scraper.dashboard.key'))).toBe(account.liveKey);
  });

  it("refuses actions that are not a JSON array without sending, and shows the API's own 400", async () => {
    const actions = page.getByLabel('Actions (JSON array, optional)');
    for (const [text, error] of [
      ['[{"type": "click"', 'Actions are not valid JSON'],
      ['{"type": "wait", "ms": 5}', 'Actions must be a JSON array'],
    ]) {
      await actions.fill(text);
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await expectPage(page.locator('#page-error')).toContainText(error);
      await expectPage(page.getByTestId('curl')).toContainText(error);
    }
    expect(sent).toHaveLength(2);

    await page.getByLabel('Render', { exact: true }).selectOption('browser');
    await actions.fill('[{"type": "explode"}]');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expectPage(page.locator('#page-error')).toContainText('actions[0]');
    expect(sent).toHaveLength(3);
    expect(sent[2].body).toMatchObject({ actions: [{ type: 'explode' }] });
  });

  it('shows a refused other key as an error and stays signed in with its own', async () => {
    await page.getByLabel('Actions (JSON array, optional)').fill('');
    await page.getByLabel(/^Other key/).fill('osk_test_not-a-key');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expectPage(page.locator('#page-error')).not.toBeEmpty();
    expect(sent.at(-1)!.authorization).toBe('Bearer osk_test_not-a-key');
    await expectPage(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expectPage(heading(page)).toHaveText('Playground');
    expect(await page.evaluate(() => sessionStorage.getItem('scraper.dashboard.key'))).toBe(account.liveKey);
  });

  it('never logged a key and met no script or CSP error', async () => {
    const logs = api.logs.join('');
    for (const key of [account.liveKey, account.testKey]) expect(logs).not.toContain(key);
    expect(
      await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
    ).toEqual([]);
    // The API's 400 and 401 above are the failed loads expected.
    expect(consoleErrors.filter((e) => !/(400 \(Bad Request|401 \(Unauthorized)\)/.test(e))).toEqual([]);
  });
});
