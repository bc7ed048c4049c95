import type { Test } from 'supertest';
import type { ApiHarness } from '../support/api-harness';
import { recordAbuse } from './report';

/** One bad input: what is sent, and the answer it must get. */
export interface Case {
  group: string;
  input: string;
  send: () => Test;
  status: number;
  code?: string;
  /** A text the answer's detail or errors must contain (the field or what was wrong). */
  names?: string;
}

const describeAnswer = (res: {
  status: number;
  body: { code?: string; detail?: string; errors?: unknown };
}) => {
  const errors = Array.isArray(res.body.errors)
    ? ` [${(res.body.errors as { field: string; message: string }[]).map((e) => `${e.field}: ${e.message}`).join('; ')}]`
    : '';
  return `${res.status} ${res.body.code ?? ''}: ${res.body.detail ?? ''}${errors}`.slice(0, 300);
};

/**
 * Sends each case in turn and checks its answer (never a 500, and it names what was wrong),
 * writing it to the report table for docs/reliability.md.
 */
export async function runCases(cases: Case[]): Promise<void> {
  for (const c of cases) {
    const res = await c.send();
    recordAbuse({ group: c.group, input: c.input, answer: describeAnswer(res) });
    expect({ input: c.input, status: res.status }).toEqual({ input: c.input, status: c.status });
    if (c.code) expect(res.body.code).toBe(c.code);
    if (c.names) expect(JSON.stringify(res.body).toLowerCase()).toContain(c.names.toLowerCase());
    expect(res.headers['x-request-id']).toBeTruthy();
  }
}

/** Malformed, mistyped, unknown and oversized bodies of POST /v1/scrape/async (and a job id). */
export function badBodyCases(api: ApiHarness, key: string, url: string): Case[] {
  const as = (req: Test) => req.set('Authorization', `Bearer ${key}`);
  const scrape = (body: unknown) => as(api.http().post('/v1/scrape/async')).send(body as object);
  const raw = (body: string) =>
    as(api.http().post('/v1/scrape/async')).set('Content-Type', 'application/json').send(body);
  return [
    {
      group: 'malformed',
      input: 'truncated JSON `{"url":`',
      send: () => raw('{"url":'),
      status: 400,
      code: 'invalid_request',
    },
    {
      group: 'malformed',
      input: 'JSON with a trailing comma',
      send: () => raw(`{"url":"${url}",}`),
      status: 400,
    },
    {
      group: 'malformed',
      input: 'a JSON string instead of an object',
      send: () => raw('"hello"'),
      status: 400,
    },
    { group: 'malformed', input: 'an empty body', send: () => raw(''), status: 400, names: 'url' },
    {
      group: 'malformed',
      input: 'a text/plain body',
      send: () => as(api.http().post('/v1/scrape/async')).set('Content-Type', 'text/plain').send(url),
      status: 400,
      code: 'invalid_request',
      names: 'application/json',
    },
    {
      group: 'malformed',
      input: 'a job id of 300 characters',
      send: () => as(api.http().get(`/v1/jobs/job_${'a'.repeat(296)}`)),
      status: 400,
      code: 'invalid_request',
    },
    {
      group: 'malformed',
      input: 'a path that does not decode `/v1/jobs/%zz`',
      send: () => as(api.http().get('/v1/jobs/%zz')),
      status: 400,
      code: 'invalid_request',
      names: '%zz',
    },
    { group: 'types', input: 'url: 42', send: () => scrape({ url: 42 }), status: 400, names: 'url' },
    { group: 'types', input: 'url: null', send: () => scrape({ url: null }), status: 400, names: 'url' },
    {
      group: 'types',
      input: 'timeout: "fast"',
      send: () => scrape({ url, timeout: 'fast' }),
      status: 400,
      names: 'timeout',
    },
    {
      group: 'types',
      input: 'timeout: 999999 (over the max)',
      send: () => scrape({ url, timeout: 999_999 }),
      status: 400,
      names: 'timeout',
    },
    {
      group: 'types',
      input: 'timeout: -1',
      send: () => scrape({ url, timeout: -1 }),
      status: 400,
      names: 'timeout',
    },
    {
      group: 'types',
      input: 'formats: ["pdf"]',
      send: () => scrape({ url, formats: ['pdf'] }),
      status: 400,
      names: 'formats',
    },
    {
      group: 'types',
      input: 'format: 7',
      send: () => scrape({ url, format: 7 }),
      status: 400,
      names: 'format',
    },
    {
      group: 'types',
      input: 'only_main_content: "yes"',
      send: () => scrape({ url, only_main_content: 'yes' }),
      status: 400,
      names: 'only_main_content',
    },
    {
      group: 'types',
      input: 'headers: "x"',
      send: () => scrape({ url, headers: 'x' }),
      status: 400,
      names: 'headers',
    },
    {
      group: 'types',
      input: 'render: "gpu"',
      send: () => scrape({ url, render: 'gpu' }),
      status: 400,
      names: 'render',
    },
    {
      group: 'types',
      input: 'engine: "webkit"',
      send: () => scrape({ url, engine: 'webkit' }),
      status: 400,
      names: 'engine',
    },
    {
      group: 'types',
      input: 'urls: "one string" (batch)',
      send: () => as(api.http().post('/v1/scrape/batch/async')).send({ urls: 'x' }),
      status: 400,
      names: 'urls',
    },
    {
      group: 'types',
      input: 'urls: [] (batch)',
      send: () => as(api.http().post('/v1/scrape/batch/async')).send({ urls: [] }),
      status: 400,
      names: 'urls',
    },
    {
      group: 'types',
      input: 'limit: 100001 (crawl)',
      send: () => as(api.http().post('/v1/crawl')).send({ url, limit: 100_001 }),
      status: 400,
      names: 'limit',
    },
    {
      group: 'unknown',
      input: 'an unknown field `foo`',
      send: () => scrape({ url, foo: 1 }),
      status: 400,
      names: 'foo',
    },
    {
      group: 'unknown',
      input: 'headers: {"x-a": 1} (a number value)',
      send: () => scrape({ url, headers: { 'x-a': 1 } }),
      status: 400,
      names: 'headers',
    },
    {
      group: 'size',
      input: '2 MB body on /v1/scrape (limit 1 MB)',
      send: () => scrape({ url, pad: 'x'.repeat(2 * 1024 * 1024) }),
      status: 413,
      code: 'payload_too_large',
    },
    {
      group: 'size',
      input: 'a 3,000-character URL',
      send: () => scrape({ url: `${url}?q=${'a'.repeat(3000)}` }),
      status: 400,
      names: 'url',
    },
  ];
}
