import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { NO_METADATA, RENDERED_NOW, type PageResult } from '@app/queue-contracts';
import { createMcpServer } from './mcp-server';
import { BackendRefusal, type ScraperBackend } from './scraper-backend';
import { serveMcpStdio } from './stdio';

/** A backend answering from memory, recording what the tools asked of it. */
function fakeBackend(calls: unknown[][]): ScraperBackend {
  const page = (url: string): PageResult => ({
    index: 0,
    url,
    final_url: url,
    status_code: 200,
    markdown: `# Page ${url}`,
    metadata: { ...NO_METADATA, engine: 'http', ...RENDERED_NOW },
    timings: { total_ms: 1, render_ms: 1 },
  });
  const job = (id: string) => ({
    job_id: id,
    type: 'batch' as const,
    status: 'completed' as const,
    created_at: '',
    started_at: null,
    finished_at: null,
    expires_at: '',
    total: 1,
    completed: 1,
    failed: 0,
    result: { data: [page('https://a.example/')], next: null },
  });
  return {
    scrape: async (body) => (calls.push(['scrape', body]), page(String(body.url))),
    batchScrape: async (body) => (calls.push(['batchScrape', body]), { status: 'queued', job_id: 'job_b' }),
    crawl: async (body) => {
      calls.push(['crawl', body]);
      throw new BackendRefusal('invalid_request', 'limit: limit must not be greater than 10000', 400);
    },
    map: async (body) => (calls.push(['map', body]), { links: ['https://a.example/'], truncated: false }),
    jobStatus: async (id, page) => (calls.push(['jobStatus', id, page]), job(id)),
    cancel: async (id) => (calls.push(['cancel', id]), job(id)),
  };
}

describe('createMcpServer over a backend', () => {
  const calls: unknown[][] = [];
  let client: Client;

  beforeAll(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(fakeBackend(calls)).connect(serverSide);
    client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
  });
  afterAll(() => client?.close());
  beforeEach(() => (calls.length = 0));

  it('lists the six tools, each with a description and an object schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['batch_scrape', 'cancel', 'crawl', 'job_status', 'map', 'scrape'].sort(),
    );
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(50);
      expect(tool.inputSchema.type).toBe('object');
    }
    const scrape = tools.find((t) => t.name === 'scrape')!;
    expect(scrape.inputSchema.required).toEqual(['url']);
  });

  it('passes REST bodies without the tool-only fields, and answers inline', async () => {
    const result = await client.callTool({
      name: 'scrape',
      arguments: { url: 'https://a.example/', max_chars: 5000 },
    });
    expect(calls).toEqual([['scrape', { url: 'https://a.example/' }]]);
    expect((result.content as { text: string }[])[0].text).toBe('# Page https://a.example/');
  });

  it('gives a job id for a batch, and a small first page of results by default', async () => {
    const queued = await client.callTool({
      name: 'batch_scrape',
      arguments: { urls: ['https://a.example/'] },
    });
    expect(queued.structuredContent).toEqual({ job_id: 'job_b', status: 'queued' });
    await client.callTool({ name: 'job_status', arguments: { job_id: 'job_b' } });
    await client.callTool({ name: 'job_status', arguments: { job_id: 'job_b', cursor: 'c', page_size: 3 } });
    expect(calls.slice(1)).toEqual([
      ['jobStatus', 'job_b', { page_size: 10 }],
      ['jobStatus', 'job_b', { cursor: 'c', page_size: 3 }],
    ]);
  });

  it('makes a refusal, or arguments the schema refuses, a tool error rather than a protocol error', async () => {
    const refused = await client.callTool({
      name: 'crawl',
      arguments: { url: 'https://a.example/', limit: 1e9 },
    });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0].text).toBe(
      'Refused (invalid_request, HTTP 400): limit: limit must not be greater than 10000',
    );
    const bad = await client.callTool({ name: 'scrape', arguments: {} });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('url');
    expect(calls).toEqual([['crawl', { url: 'https://a.example/', limit: 1e9 }]]);
  });
});

describe('serveMcpStdio', () => {
  it('answers newline-delimited JSON-RPC on its streams and ends with its input', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const served = serveMcpStdio(fakeBackend([]), { stdin, stdout });
    const lines: string[] = [];
    stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    stdin.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }) + '\n',
    );
    stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) + '\n');
    while (lines.length < 2) await new Promise((r) => setTimeout(r, 10));
    stdin.end();
    await served;
    const [init, list] = lines.map((l) => JSON.parse(l));
    expect(init.result.serverInfo.name).toBe('scraper-cluster');
    expect(list.result.tools).toHaveLength(6);
  });
});
