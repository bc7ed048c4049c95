import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApiHarness, startApi } from '../../../test/support/api-harness';
import { REPO_ROOT } from '../../../test/support/processes';

/** The document is served without a key, matches the committed docs/openapi.json, and so does its UI. */
describe('OpenAPI document and /docs', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  it('serves at /docs/openapi.json, without a key, the document committed as docs/openapi.json', async () => {
    const res = await api.http().get('/docs/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const committed = JSON.parse(readFileSync(resolve(REPO_ROOT, 'docs', 'openapi.json'), 'utf8'));
    expect(res.body).toEqual(committed);
  });

  it('serves the Swagger UI at /docs with its assets from this server, not a CDN', async () => {
    const page = await api.http().get('/docs').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(source).not.toMatch(/^(https?:)?\/\//);
      const url = new URL(source, 'http://api/docs').pathname;
      const asset = await api.http().get(url);
      expect([url, asset.status]).toEqual([url, 200]);
    }
  });

  it('documents every customer route with the API key and the error body', async () => {
    const { body } = await api.http().get('/docs/openapi.json').expect(200);
    const operations = Object.entries(body.paths as Record<string, Record<string, Operation>>).flatMap(
      ([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );
    const customer = operations.filter((o) => o.path.startsWith('/v1/'));
    expect(customer.map((o) => `${o.method} ${o.path}`).sort()).toEqual(
      [
        'delete /v1/jobs/{id}',
        'delete /v1/keys/{id}',
        'delete /v1/sessions/{id}',
        'get /v1/jobs',
        'get /v1/jobs/{id}',
        'get /v1/keys',
        'get /v1/me',
        'get /v1/sessions',
        'get /v1/usage',
        'get /v1/webhooks/deliveries',
        'get /v1/webhooks/deliveries/{id}',
        'get /v1/webhooks/secret',
        'post /v1/crawl',
        'post /v1/keys',
        'post /v1/map',
        'post /v1/scrape',
        'post /v1/scrape/async',
        'post /v1/scrape/batch/async',
        'post /v1/webhooks/deliveries/replay',
        'post /v1/webhooks/deliveries/{id}/replay',
        'post /v1/webhooks/secret/rotate',
      ].sort(),
    );
    for (const { op } of customer) {
      expect(op.security).toEqual([{ apiKey: [] }]);
      for (const status of ['401', '429'])
        expect(op.responses[status]?.content['application/json'].schema).toEqual({
          $ref: '#/components/schemas/ErrorBodyDto',
        });
    }
  });

  it('takes a key on exactly the paths the onRequest hook authenticates before the body', async () => {
    const { body } = await api.http().get('/docs/openapi.json').expect(200);
    for (const [path, methods] of Object.entries(body.paths as Record<string, Record<string, Operation>>))
      for (const op of Object.values(methods)) {
        const scheme = ((op.security as Record<string, unknown>[] | undefined) ?? []).map(
          (s) => Object.keys(s)[0],
        );
        const expected = path.startsWith('/v1/')
          ? ['apiKey']
          : path.startsWith('/admin/')
            ? ['adminToken']
            : [];
        expect([path, scheme]).toEqual([path, expected]);
      }
  });
});

interface Operation {
  security: unknown;
  responses: Record<string, { content: Record<string, { schema: unknown }> }>;
}
