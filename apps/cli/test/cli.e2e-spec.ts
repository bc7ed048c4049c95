import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFixtureSite, type FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { ApiHarness, TestAccount, createAccount, startApi } from '../../../test/support/api-harness';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI_BIN, cliEnv, jsonLines, runCli } from './run-cli';

// The real bin, in child processes, with the stores' URLs at closed ports (runCli): nothing here
// may need MySQL, Redis, a worker or a secret, but the --api case, which runs a real cluster.
describe('scraper (bin/scraper)', () => {
  let site: FixtureSite;
  let dir: string;

  beforeAll(async () => {
    site = await startFixtureSite({ crawlDelaySeconds: null });
    dir = await mkdtemp(path.join(tmpdir(), 'scraper-cli-'));
  });

  afterAll(async () => {
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('scrape prints the markdown, raw, to a piped stdout', async () => {
    const run = await runCli(['scrape', `${site.origin}/crawl/about`, '--render', 'http']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^# About the crawl site\n/);
    expect(run.stdout).not.toContain('"markdown"');
  });

  it('scrape --format links prints one URL a line; -o writes a file and nothing on stdout', async () => {
    const links = await runCli(['scrape', `${site.origin}/crawl/`, '--render', 'http', '--format', 'links']);
    expect(links.code).toBe(0);
    expect(links.stdout.split('\n')).toEqual(
      expect.arrayContaining([`${site.origin}/crawl/about`, `${site.origin}/crawl/blog/`]),
    );
    const file = path.join(dir, 'about.md');
    const saved = await runCli(['scrape', `${site.origin}/crawl/about`, '--render', 'http', '-o', file]);
    expect(saved).toMatchObject({ code: 0, stdout: '' });
    expect(await readFile(file, 'utf8')).toMatch(/^# About the crawl site\n/);
  });

  it('scrape renders a client-side page in a browser', async () => {
    const run = await runCli(['scrape', `${site.origin}/spa/article/feature`, '--render', 'browser']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Field Notes on Urban Beekeeping');
  });

  it('refuses an address outside NET_ALLOW_CIDRS with code 4 and one line; --allow-cidr opens it', async () => {
    const refused = await runCli(['scrape', `http://127.0.0.2:${site.port}/crawl/about`, '--render', 'http']);
    expect(refused.code).toBe(4);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/BLOCKED_ADDRESS.*--allow-cidr/),
    ]);
    expect(site.leakedRequests()).toEqual([]);
    const allowed = await runCli([
      'scrape',
      `http://127.0.0.2:${site.port}/crawl/about`,
      '--render',
      'http',
      '--allow-cidr',
      '127.0.0.2/32',
    ]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('# About the crawl site');
  });

  it('a page error exits 3; a bad flag, URL or environment 2; each with one line on stderr', async () => {
    const missing = await runCli(['scrape', `${site.origin}/crawl/missing`, '--render', 'http']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/HTTP_4XX/);
    const bad = await runCli(['scrape', site.origin, '--format', 'pdf']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^scraper: .*'pdf'/);
    const notUrl = await runCli(['scrape', 'example.com/page']);
    expect(notUrl.code).toBe(2);
    expect(notUrl.stderr).toMatch(/absolute http/);
    const badEnv = await runCli(['scrape', `${site.origin}/crawl/about`], { NET_EGRESS_MODE: 'open' });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toMatch(/^scraper: .*NET_EGRESS_MODE/);
  });

  it('crawl --limit 3 --out writes a file per page and a JSON line per page', async () => {
    const out = path.join(dir, 'crawl');
    const run = await runCli([
      'crawl',
      `${site.origin}/crawl/`,
      '--limit',
      '3',
      '--out',
      out,
      '--render',
      'http',
    ]);
    expect(run.code).toBe(0);
    const pages = jsonLines(run.stdout);
    expect(pages).toHaveLength(3);
    expect(pages[0]).toMatchObject({ url: `${site.origin}/crawl/`, status_code: 200 });
    const files = (await readdir(out)).sort();
    expect(files).toHaveLength(3);
    expect(pages.map((p) => path.basename(p.file as string)).sort()).toEqual(files);
    for (const file of files) expect(file).toMatch(/^\d{4}-[A-Za-z0-9.-]+\.md$/);
    expect(await readFile(path.join(out, files[0]), 'utf8')).toContain('# Crawl home');
  });

  it("map lists the site's URLs from its links and its sitemap", async () => {
    const run = await runCli(['map', `${site.origin}/crawl/`]);
    expect(run.code).toBe(0);
    const urls = jsonLines(run.stdout).map((line) => line.url);
    expect(urls[0]).toBe(`${site.origin}/crawl/`);
    expect(urls).toEqual(
      expect.arrayContaining([`${site.origin}/crawl/about`, `${site.origin}/crawl/sitemap-only`]),
    );
  });

  it('--help of each command names its flags and the exit codes', async () => {
    const flags = {
      scrape: ['--format', '--wait-for', '--actions', '-o'],
      crawl: ['--limit', '--out'],
      map: ['--search'],
    };
    for (const [command, names] of Object.entries(flags)) {
      const run = await runCli([command, '--help']);
      expect(run.code).toBe(0);
      for (const name of names) expect(run.stdout).toContain(name);
      expect(run.stdout).toContain('Exit codes');
    }
  });

  it('mcp serves the tools over stdio, rendering in-process; a refused address is a tool error', async () => {
    const client = new Client({ name: 'cli-e2e', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI_BIN, 'mcp'],
        env: cliEnv(),
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(
        ['batch_scrape', 'cancel', 'crawl', 'job_status', 'map', 'scrape'].sort(),
      );
      const page = (await client.callTool({
        name: 'scrape',
        arguments: { url: `${site.origin}/crawl/about`, render: 'http' },
      })) as CallToolResult;
      expect(page.isError).toBeFalsy();
      expect(page.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('# About') });
      const refused = (await client.callTool({
        name: 'scrape',
        arguments: { url: `http://127.0.0.2:${site.port}/crawl/about`, render: 'http' },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(/BLOCKED_ADDRESS/);
    } finally {
      await client.close();
    }
  });

  describe('--api', () => {
    let api: ApiHarness;
    let worker: WorkerHarness;
    let account: TestAccount;
    let apiUrl: string;

    beforeAll(async () => {
      api = await startApi();
      worker = await startWorker();
      account = await createAccount(api);
      await api.app.listen(0, '127.0.0.1');
      apiUrl = await api.app.getUrl();
    });

    afterAll(async () => {
      await worker?.close();
      await api?.close();
    });

    it('sends scrape to the cluster with the key from SCRAPER_API_KEY', async () => {
      const run = await runCli(
        ['--api', apiUrl, 'scrape', `${site.origin}/crawl/about`, '--render', 'http'],
        {
          SCRAPER_API_KEY: account.testKey,
        },
      );
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(/^# About the crawl site\n/);
    });

    it("follows the cluster's crawl job to its end, a JSON line per page", async () => {
      const run = await runCli(
        ['--api', apiUrl, 'crawl', `${site.origin}/crawl/`, '--limit', '2', '--render', 'http'],
        {
          SCRAPER_API_KEY: account.testKey,
        },
      );
      expect(run.code).toBe(0);
      // The cluster also reports the URLs it did not fetch (out of scope, robots.txt).
      const pages = jsonLines(run.stdout);
      const fetched = pages.filter((p) => !p.error);
      expect(fetched).toHaveLength(2);
      expect(fetched[0]).toMatchObject({ url: `${site.origin}/crawl/`, status_code: 200 });
      expect(fetched[0].markdown).toContain('# Crawl home');
      for (const page of pages.filter((p) => p.error)) {
        expect(['OUT_OF_SCOPE', 'BLOCKED_ROBOTS']).toContain((page.error as { code: string }).code);
      }
    });

    it("exits 4 when the cluster's address policy refuses the URL", async () => {
      const run = await runCli(['--api', apiUrl, 'scrape', `http://127.0.0.2:${site.port}/crawl/about`], {
        SCRAPER_API_KEY: account.testKey,
      });
      expect(run.code).toBe(4);
      expect(run.stderr).toMatch(/^scraper: invalid_request: .*may not reach/);
    });

    it("answers the cluster's refusal with code 5, without showing the key", async () => {
      const wrong = `${account.testKey.slice(0, -4)}zzzz`;
      const run = await runCli(['scrape', `${site.origin}/crawl/about`, '--api', apiUrl, '--key', wrong]);
      expect(run.code).toBe(5);
      expect(run.stderr).toMatch(/unauthorized/);
      expect(run.stderr).not.toContain(wrong);
    });
  });
});
