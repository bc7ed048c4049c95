import type { Test } from 'supertest';
import { DataSource } from 'typeorm';
import { BlockedAddressError, createAddressPolicy, vetUrl } from '@app/net-guard';
import { FixtureSite, startFixtureSite } from '../fixtures/site/fixture-site';
import { refusedOrigins } from '../fixtures/site/routing';
import { ApiHarness, TestAccount, createAccount, startApi } from '../support/api-harness';
import { RunningProcess, startWorkerProcess } from '../support/processes';
import { badBodyCases, runCases } from './abuse-cases';
import { recordAbuse } from './report';

/**
 * Bad input and abuse, case by case (abuse-cases.ts checks and reports each answer). Address forms
 * off loopback are judged as pure functions; end to end only loopback forms outside the allowed
 * 127.0.0.1/32 are used.
 */
describe('abuse and bad input', () => {
  let site: FixtureSite;
  let api: ApiHarness;
  let a: TestAccount;
  let b: TestAccount;
  let worker: RunningProcess;

  beforeAll(async () => {
    site = await startFixtureSite();
    api = await startApi();
    [a, b] = [await createAccount(api, 'enterprise'), await createAccount(api, 'enterprise')];
    worker = await startWorkerProcess({});
  });
  afterAll(async () => {
    worker?.child.kill('SIGKILL');
    await worker?.exited;
    await api?.close();
    await site?.close();
  });

  const as = (key: string) => (req: Test) => req.set('Authorization', `Bearer ${key}`);
  const scrape = (body: unknown) => as(a.liveKey)(api.http().post('/v1/scrape/async')).send(body as object);

  it('malformed, mistyped, unknown and oversized bodies get 4xx naming the problem', async () => {
    await runCases(badBodyCases(api, a.liveKey, `${site.origin}/static/article/1`));
  });

  it('refuses 1,000,001 URLs in one batch', async () => {
    const urls = Array.from(
      { length: 1_000_001 },
      (_, i) => `${site.origin}/static/article/${(i % 10_000) + 1}`,
    );
    await runCases([
      {
        group: 'size',
        input: '1,000,001 URLs in a batch',
        send: () => as(a.liveKey)(api.http().post('/v1/scrape/batch/async')).send({ urls }),
        status: 400,
        names: 'urls',
      },
    ]);
  }, 120_000);

  it('URLs: schemes, credentials, IDN, and every loopback form outside 127.0.0.1/32', async () => {
    const port = site.port;
    const refused = refusedOrigins(port);
    const urlCases: [string, string, string][] = [
      ['scheme', 'ftp://127.0.0.1/file', 'ftp'],
      ['scheme', 'javascript:alert(1)', 'url'],
      ['scheme', 'file:///etc/passwd', 'file'],
      ['scheme', 'data:text/html,<h1>x</h1>', 'url'],
      ['scheme', 'not a url', 'url'],
      ['credentials', `http://user:secret@127.0.0.1:${port}/`, 'credentials'],
      ['credentials', `http://user@127.0.0.1:${port}/`, 'credentials'],
      ['port', 'http://127.0.0.1:0/', 'port'],
      ['port', 'http://127.0.0.1:70000/', 'url'],
      ['idn', `http://bücher.localhost:${port}/`, 'may not reach'],
      ['idn', `http://xn--bcher-kva.localhost:${port}/`, 'may not reach'],
      ...Object.entries(refused).map(([k, origin]): [string, string, string] => [
        'loopback form ' + k,
        `${origin}/`,
        'url',
      ]),
      ['loopback form octal', `http://0177.0.0.2:${port}/`, 'url'],
      ['loopback form short', `http://127.2:${port}/`, 'url'],
      ['loopback form localhost', `http://localhost:${port}/`, 'url'],
      ['loopback form trailing dot', `http://foo.localhost.:${port}/`, 'url'],
    ];
    await runCases(
      urlCases.map(([group, url, names]) => ({
        group: `url: ${group}`,
        input: url,
        send: () => scrape({ url }),
        status: 400,
        code: 'invalid_request',
        names,
      })),
    );
    await runCases([
      {
        group: 'webhook_url',
        input: 'http:// receiver (https only)',
        send: () => scrape({ url: `${site.origin}/`, webhook_url: 'http://127.0.0.1:9/hook' }),
        status: 400,
        names: 'webhook_url',
      },
      {
        group: 'webhook_url',
        input: 'https receiver on 127.0.0.2',
        send: () => scrape({ url: `${site.origin}/`, webhook_url: 'https://127.0.0.2:9/hook' }),
        status: 400,
        names: 'webhook_url',
      },
    ]);
    expect(site.leakedRequests()).toEqual([]);
  });

  it('redirects to refused addresses fail the page with BLOCKED_ADDRESS and reach nothing', async () => {
    const keys = Object.keys(refusedOrigins(site.port));
    for (const render of ['http', 'browser']) {
      for (const key of keys) {
        const res = await as(a.liveKey)(api.http().post('/v1/scrape')).send({
          url: `${site.origin}/redirect/refused/${key}`,
          render,
        });
        recordAbuse({
          group: `redirect (render ${render})`,
          input: `/redirect/refused/${key}`,
          answer: `${res.status}, page error ${res.body.error?.code}: ${res.body.error?.message}`.slice(
            0,
            300,
          ),
        });
        expect(res.status).toBe(200);
        expect(res.body.error?.code).toBe('BLOCKED_ADDRESS');
      }
    }
    expect(site.leakedRequests()).toEqual([]);
  }, 240_000);

  it('keys: bad checksum, malformed, revoked, another environment; other accounts’ jobs', async () => {
    const flipped = a.liveKey.slice(0, -1) + (a.liveKey.endsWith('A') ? 'B' : 'A');
    const issued = await as(a.liveKey)(api.http().post('/v1/keys')).send({}).expect(201);
    await as(a.liveKey)(api.http().delete(`/v1/keys/${issued.body.id}`)).expect(200);
    const job = await scrape({ url: `${site.origin}/static/article/2` }).expect(202);
    const me = (key: string) => as(key)(api.http().get('/v1/me'));
    await runCases([
      {
        group: 'keys',
        input: 'no Authorization header',
        send: () => api.http().get('/v1/me'),
        status: 401,
        code: 'unauthorized',
      },
      {
        group: 'keys',
        input: 'a key with a bad checksum',
        send: () => me(flipped),
        status: 401,
        code: 'unauthorized',
      },
      {
        group: 'keys',
        input: 'a malformed key `osk_live_x`',
        send: () => me('osk_live_x'),
        status: 401,
        code: 'unauthorized',
      },
      {
        group: 'keys',
        input: 'a revoked key',
        send: () => me(issued.body.key),
        status: 401,
        code: 'unauthorized',
      },
      {
        group: 'keys',
        input: 'Basic auth instead of Bearer',
        send: () => api.http().get('/v1/me').set('Authorization', 'Basic dXNlcjpwYXNz'),
        status: 401,
        code: 'unauthorized',
      },
      {
        group: 'keys',
        input: 'a customer key on /admin/v1/accounts',
        send: () => as(a.liveKey)(api.http().get('/admin/v1/accounts/x')),
        status: 401,
      },
      {
        group: 'isolation',
        input: "another account's job id",
        send: () => as(b.liveKey)(api.http().get(`/v1/jobs/${job.body.job_id}`)),
        status: 404,
        code: 'not_found',
      },
      {
        group: 'isolation',
        input: "the same account's job from the sandbox key",
        send: () => as(a.testKey)(api.http().get(`/v1/jobs/${job.body.job_id}`)),
        status: 404,
        code: 'not_found',
      },
      {
        group: 'isolation',
        input: "cancel another account's job",
        send: () => as(b.liveKey)(api.http().delete(`/v1/jobs/${job.body.job_id}`)),
        status: 404,
        code: 'not_found',
      },
    ]);
  });

  it('SQL-like and script payloads in string fields are data, never code', async () => {
    const sql = "' OR '1'='1'; DROP TABLE jobs; --";
    const script = '<script>alert(document.cookie)</script>';
    const url = `${site.origin}/static/article/4`;
    const idem = as(a.liveKey)(api.http().post('/v1/scrape/async')).set('Idempotency-Key', sql).send({ url });
    await runCases([
      {
        group: 'injection',
        input: `job id ${sql}`,
        send: () => as(a.liveKey)(api.http().get(`/v1/jobs/${encodeURIComponent(sql)}`)),
        status: 404,
      },
      {
        group: 'injection',
        input: `cursor ${sql}`,
        send: () => as(a.liveKey)(api.http().get(`/v1/jobs?cursor=${encodeURIComponent(sql)}`)),
        status: 400,
        names: 'cursor',
      },
      {
        group: 'injection',
        input: `status filter ${sql}`,
        send: () => as(a.liveKey)(api.http().get(`/v1/jobs?status=${encodeURIComponent(sql)}`)),
        status: 400,
        names: 'status',
      },
      {
        group: 'injection',
        input: `wait_for ${script}`,
        send: () => scrape({ url, wait_for: script }),
        status: 400,
        names: 'wait_for',
      },
      {
        group: 'injection',
        input: `include_tags [${script}]`,
        send: () => scrape({ url, include_tags: [script] }),
        status: 400,
        names: 'include_tags',
      },
      {
        group: 'injection',
        input: `admin email ${sql}`,
        send: () => api.admin(api.http().post('/admin/v1/accounts')).send({ email: sql, plan: 'free' }),
        status: 400,
        names: 'email',
      },
      {
        group: 'injection',
        input: `admin plan ${sql}`,
        send: () =>
          api.admin(api.http().post('/admin/v1/accounts')).send({ email: 'p@example.test', plan: sql }),
        status: 400,
        names: 'plan',
      },
      {
        group: 'injection',
        input: `delivery id ${sql}`,
        send: () => as(a.liveKey)(api.http().get(`/v1/webhooks/deliveries/${encodeURIComponent(sql)}`)),
        status: 404,
      },
      { group: 'injection', input: `Idempotency-Key ${sql}`, send: () => idem, status: 202 },
    ]);
    // A URL whose query carries both payloads is accepted and kept verbatim.
    const odd = `${site.origin}/static/article/5?q=${encodeURIComponent(sql + script)}`;
    const accepted = await scrape({ url: odd }).expect(202);
    const stored = await as(a.liveKey)(api.http().get(`/v1/jobs/${accepted.body.job_id}`)).expect(200);
    expect(stored.body.job_id).toBe(accepted.body.job_id);
    recordAbuse({
      group: 'injection',
      input: `url with ${sql}${script} in its query`,
      answer: '202, stored verbatim',
    });
    const [jobs] = await api.app.get(DataSource).query('SELECT COUNT(*) AS n FROM jobs');
    expect(Number(jobs.n)).toBeGreaterThan(0);
  });

  it('address policy (pure function): private, link-local, metadata and mapped forms', async () => {
    const policy = createAddressPolicy({ mode: 'public', allowCidrs: [] });
    const refusedAddresses = [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '100.64.0.1',
      '127.0.0.1',
      '0.0.0.0',
      '169.254.169.254',
      '169.254.170.2',
      '100.100.100.200',
      '192.0.0.192',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '::ffff:127.0.0.2',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::a00:1',
      '2002:a9fe:a9fe::1',
      '2001:db8::1',
      'ff02::1',
      '0x7f000001',
    ];
    const allowedAddresses = ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '64:ff9b::808:808'];
    for (const ip of refusedAddresses) {
      recordAbuse({
        group: 'address policy (public mode)',
        input: ip,
        answer: `refused: ${policy.explain(ip)}`,
      });
      expect({ ip, allowed: policy.isAllowed(ip) }).toEqual({ ip, allowed: false });
    }
    for (const ip of allowedAddresses) {
      recordAbuse({ group: 'address policy (public mode)', input: ip, answer: 'allowed' });
      expect({ ip, allowed: policy.isAllowed(ip) }).toEqual({ ip, allowed: true });
    }
    const resolverCases: [string, string[]][] = [
      ['metadata.rebind.test', ['169.254.169.254']],
      ['private.rebind.test', ['10.1.2.3']],
      ['mixed.rebind.test', ['93.184.216.34', '192.168.0.1']],
      ['mapped.rebind.test', ['::ffff:127.0.0.1']],
    ];
    for (const [host, answer] of resolverCases) {
      const verdict = await vetUrl(new URL(`http://${host}/`), policy, async () => answer).then(
        () => 'allowed',
        (err: Error) => `${err.constructor.name}: ${err.message}`,
      );
      recordAbuse({
        group: 'name resolving to refused addresses (injected resolver)',
        input: `${host} → ${answer.join(', ')}`,
        answer: verdict,
      });
      await expect(vetUrl(new URL(`http://${host}/`), policy, async () => answer)).rejects.toBeInstanceOf(
        BlockedAddressError,
      );
    }
  });
});
