import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FixtureSite, startFixtureSite } from '../../../test/fixtures/site/fixture-site';
import {
  ApiHarness,
  TestAccount,
  createAccount,
  createAccountOnPlan,
  startApi,
} from '../../../test/support/api-harness';
import { WorkerHarness, startWorker } from '../../../test/support/worker-harness';

/**
 * /mcp through the SDK's own client over Streamable HTTP, against the real API and worker: the
 * tools reach the REST API's services as the key's caller, with its checks, quota and rate limit.
 */
describe('the MCP server at /mcp', () => {
  let site: FixtureSite;
  let api: ApiHarness;
  let worker: WorkerHarness;
  let account: TestAccount;
  let endpoint: URL;
  let client: Client;
  const clients: Client[] = [];

  const connect = async (key: string): Promise<Client> => {
    const transport = new StreamableHTTPClientTransport(endpoint, {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    });
    const c = new Client({ name: 'mcp-e2e', version: '1.0.0' });
    clients.push(c);
    await c.connect(transport);
    return c;
  };
  const call = async (name: string, args: Record<string, unknown>, as = client) =>
    (await as.callTool({ name, arguments: args })) as CallToolResult;
  const texts = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`));
  const summary = (r: CallToolResult) => JSON.parse(texts(r)[0].split('\n')[0]) as Record<string, unknown>;

  beforeAll(async () => {
    site = await startFixtureSite();
    api = await startApi();
    await api.app.listen(0, '127.0.0.1');
    endpoint = new URL(`http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}/mcp`);
    worker = await startWorker();
    account = await createAccount(api, 'pro');
    client = await connect(account.liveKey);
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await worker?.close();
    await api?.close();
    await site?.close();
  });

  it('lists the six tools with their input schemas', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual([
      'batch_scrape',
      'cancel',
      'crawl',
      'job_status',
      'map',
      'scrape',
    ]);
    expect(byName.scrape.inputSchema.required).toEqual(['url']);
    expect(byName.batch_scrape.inputSchema.required).toEqual(['urls']);
    expect(Object.keys(byName.job_status.inputSchema.properties!)).toEqual(['job_id', 'cursor', 'page_size']);
  });

  it('answers scrape {url} with the markdown inline, then the metadata', async () => {
    const result = await call('scrape', { url: `${site.origin}/static/article/feature` });
    expect(result.isError).toBeFalsy();
    const [markdown, metadata] = texts(result);
    expect(markdown.startsWith('# Field Notes on Urban Beekeeping')).toBe(true);
    expect(metadata).toMatch(/^\[metadata\] /);
    expect(JSON.parse(metadata.slice('[metadata] '.length))).toMatchObject({
      url: `${site.origin}/static/article/feature`,
      status_code: 200,
      title: 'Field Notes on Urban Beekeeping',
    });
  });

  it("lists a site's URLs with map", async () => {
    const result = await call('map', { url: `${site.origin}/crawl/`, ignore_sitemap: true });
    expect(result.isError).toBeFalsy();
    const lines = texts(result)[0].split('\n');
    expect(lines).toContain(`${site.origin}/crawl/about`);
    expect(lines[0]).toMatch(/^\d+ URLs$/);
  });

  it('queues batch_scrape as a job that job_status follows to its results', async () => {
    const urls = [1, 2].map((n) => `${site.origin}/static/article/${n}`);
    const queued = await call('batch_scrape', { urls, render: 'http' });
    const jobId = (queued.structuredContent as { job_id: string }).job_id;
    expect(jobId).toMatch(/^job_/);
    expect(texts(queued)[0]).toContain('job_status');
    let status: CallToolResult;
    for (;;) {
      status = await call('job_status', { job_id: jobId });
      if (summary(status).status !== 'queued' && summary(status).status !== 'running') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(summary(status)).toMatchObject({ job_id: jobId, status: 'completed', total: 2, completed: 2 });
    const heads = texts(status).filter((t) => t.startsWith('--- result'));
    expect(heads).toEqual(urls.map((u, i) => `--- result ${i}: ${u}`));
    expect(texts(status).filter((t) => t.startsWith('# ')).length).toBe(2);
  });

  it('cancels a crawl it queued', async () => {
    const queued = await call('crawl', {
      url: `${site.origin}/crawl/deep/1`,
      include_paths: ['^/crawl/deep/'],
      max_depth: 20,
      ignore_sitemap: true,
      render: 'http',
    });
    const jobId = (queued.structuredContent as { job_id: string }).job_id;
    const cancelled = await call('cancel', { job_id: jobId });
    expect(summary(cancelled)).toMatchObject({ job_id: jobId, type: 'crawl', status: 'cancelled' });
    expect(summary(await call('job_status', { job_id: jobId })).status).toBe('cancelled');
  });

  it('makes a page that failed a tool error naming its code', async () => {
    const missing = await call('scrape', { url: `${site.origin}/crawl/missing`, render: 'http' });
    expect(missing.isError).toBe(true);
    expect(texts(missing)[0]).toMatch(/^Page error HTTP_4XX for .*\/crawl\/missing, HTTP 404: /);
  });

  it('makes what the REST API refuses a tool error with its reason', async () => {
    const blocked = await call('scrape', { url: 'http://127.0.0.2/' });
    expect(blocked.isError).toBe(true);
    expect(texts(blocked)[0]).toMatch(/^Refused \(invalid_request, HTTP 400\): url: /);
    const invalid = await call('scrape', { url: `${site.origin}/`, timeout: 5 });
    expect(texts(invalid)[0]).toBe(
      'Refused (invalid_request, HTTP 400): timeout: timeout must not be less than 1000',
    );
    const unknown = await call('job_status', { job_id: 'job_unknown' });
    expect([unknown.isError, texts(unknown)[0]]).toEqual([
      true,
      'Refused (not_found, HTTP 404): Job not found',
    ]);
  });

  it('refuses a batch past the monthly quota as a tool error', async () => {
    const small = await createAccountOnPlan(api, {
      ratePerMinute: 60,
      monthlyQuota: 1,
      maxConcurrentPages: 1,
    });
    const as = await connect(small.liveKey);
    const urls = [1, 2].map((n) => `${site.origin}/static/article/${n}`);
    const result = await call('batch_scrape', { urls }, as);
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toMatch(
      /^Refused \(quota_exceeded, HTTP 402\): Monthly quota exceeded \{"limit":1,/,
    );
  });

  it('answers a bad key 401, and a caller past its rate limit 429', async () => {
    await expect(connect('sk_live_not_a_real_key')).rejects.toMatchObject({ code: 401 });
    // Each POST takes one token, as each REST request does: initialize, initialized, tools/list.
    const slow = await createAccountOnPlan(api, {
      ratePerMinute: 3,
      monthlyQuota: 100,
      maxConcurrentPages: 1,
    });
    const as = await connect(slow.liveKey);
    await as.listTools();
    const refused = as.listTools();
    await expect(refused).rejects.toMatchObject({ code: 429 });
    await expect(refused).rejects.toThrow(/Rate limit exceeded/);
  });

  it("bounds the body as the REST API bounds a request's options", async () => {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${account.liveKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { pad: 'x'.repeat(1024 * 1024) },
      }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      detail: 'Request body is too large: at most 1 MB',
      code: 'payload_too_large',
    });
  });

  it('answers GET and DELETE with 405: a stateless server has no stream or session', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(endpoint, { method, headers: { accept: 'text/event-stream' } });
      expect([method, res.status, res.headers.get('allow')]).toEqual([method, 405, 'POST']);
    }
  });
});
