import { InvalidRequestError } from '@app/common';
import { createAddressPolicy } from './address-policy';
import { BlockedAddressError, DnsError } from './errors';
import type { HostResolver } from './resolve-host';
import { hostIsLiteralIp, parseTargetUrl, vetUrl } from './url-policy';

function invalid(raw: unknown, kind: 'target' | 'webhook' = 'target'): InvalidRequestError {
  try {
    parseTargetUrl(raw, { kind });
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRequestError);
    return err as InvalidRequestError;
  }
  throw new Error(`accepted ${String(raw)}`);
}

/** Answers from a table; a name it does not know fails like getaddrinfo. Nothing is dialed. */
function tableResolver(table: Record<string, string[]>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (host: string) => {
    calls.push(host);
    const answer = table[host];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answer;
  };
  return Object.assign(resolve, { calls });
}

describe('parseTargetUrl', () => {
  it.each(['ftp://127.0.0.1/file', 'javascript:alert(1)', 'data:text/html,<b>x</b>', 'file:///etc/passwd'])(
    'refuses the scheme of %s',
    (raw) => {
      expect(invalid(raw).message).toMatch(/^url: must use http or https, not (ftp|javascript|data|file)$/);
    },
  );

  it('allows only https for webhooks, naming the field', () => {
    const err = invalid('http://127.0.0.1/hook', 'webhook');
    expect(err.message).toBe('webhook_url: must use https, not http');
    expect(err.errors).toEqual([{ field: 'webhook_url', message: 'must use https, not http' }]);
    expect(parseTargetUrl('https://127.0.0.1/hook', { kind: 'webhook' }).href).toBe('https://127.0.0.1/hook');
  });

  it('names the field it is told to', () => {
    expect(() => parseTargetUrl('ftp://x/', { kind: 'target', field: 'urls[3]' })).toThrow(/^urls\[3\]: /);
  });

  it('refuses credentials without repeating them', () => {
    for (const raw of [
      'http://user:secret@127.0.0.1/',
      'http://user@127.0.0.1/',
      'https://:secret@127.0.0.1/',
    ]) {
      const err = invalid(raw);
      expect(err.message).toBe('url: must not contain credentials (user:password@)');
      expect(err.message).not.toContain('secret');
    }
  });

  it.each([
    ['', /non-empty/],
    [42, /non-empty string/],
    ['not a url', /absolute URL/],
    ['/relative/path', /absolute URL/],
    ['http://', /absolute URL/],
    ['http://127.0.0.1:65536/', /port from 1 to 65535/],
    ['http://127.0.0.1:0/', /port from 1 to 65535/],
    [`http://127.0.0.1/${'a'.repeat(2048)}`, /at most 2048 characters/],
  ])('refuses %j', (raw, message) => {
    expect(invalid(raw).message).toMatch(message);
  });

  it('returns the WHATWG-normalised URL', () => {
    expect(parseTargetUrl('HTTP://0x7f000002:80/a/../b?q#f', { kind: 'target' }).href).toBe(
      'http://127.0.0.2/b?q#f',
    );
    expect(parseTargetUrl('http://2130706434/', { kind: 'target' }).hostname).toBe('127.0.0.2');
    expect(parseTargetUrl('http://0177.0.0.02/', { kind: 'target' }).hostname).toBe('127.0.0.2');
    expect(parseTargetUrl('http://[::ffff:127.0.0.2]/', { kind: 'target' }).hostname).toBe('[::ffff:7f00:2]');
    expect(parseTargetUrl('https://Example.COM:443/', { kind: 'target' }).href).toBe('https://example.com/');
  });
});

describe('hostIsLiteralIp', () => {
  it.each([
    ['http://127.0.0.1/', true],
    ['http://0x7f000002/', true],
    ['http://[::1]:8080/', true],
    ['http://foo.localhost/', false],
    ['http://example.com/', false],
  ])('%s -> %s', (raw, literal) => {
    expect(hostIsLiteralIp(new URL(raw))).toBe(literal);
  });
});

describe('vetUrl', () => {
  const testPolicy = createAddressPolicy({ mode: 'allowlist', allowCidrs: ['127.0.0.1/32'] });
  const publicPolicy = createAddressPolicy({ mode: 'public', allowCidrs: [] });
  const resolver = tableResolver({
    'ok.test': ['127.0.0.1'],
    'private.test': ['10.0.0.5'],
    'metadata.test': ['169.254.169.254'],
    'mixed.test': ['127.0.0.1', '127.0.0.2'],
    'empty.test': [],
  });
  const vet = (raw: string, policy = testPolicy) =>
    vetUrl(parseTargetUrl(raw, { kind: 'target' }), policy, resolver);

  it('allows 127.0.0.1 and a name that resolves only to it', async () => {
    await expect(vet('http://127.0.0.1:8080/')).resolves.toEqual(['127.0.0.1']);
    await expect(vet('http://ok.test/')).resolves.toEqual(['127.0.0.1']);
  });

  it.each([
    'http://127.0.0.2/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.2]/',
    'http://0x7f000002/',
    'http://2130706434/',
    'http://foo.localhost/',
    'http://localhost./',
  ])('refuses the loopback spelling %s', async (raw) => {
    const before = resolver.calls.length;
    const err = await vet(raw).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect((err as BlockedAddressError).pageCode).toBe('BLOCKED_ADDRESS');
    expect((err as BlockedAddressError).code).toBe('invalid_request');
    // Literal IPs and *.localhost never reach the resolver.
    expect(resolver.calls.length).toBe(before);
  });

  it('explains a *.localhost refusal by its ::1 answer', async () => {
    await expect(vet('http://foo.localhost/')).rejects.toThrow(
      'foo.localhost resolves to ::1: ::1 is not in NET_ALLOW_CIDRS',
    );
  });

  it.each([
    ['http://private.test/', /private\.test resolves to 10\.0\.0\.5: .*private/],
    ['http://metadata.test/', /metadata\.test resolves to 169\.254\.169\.254: .*metadata/],
  ])('refuses %s by what it resolves to, in public mode too', async (raw, message) => {
    await expect(vet(raw, publicPolicy)).rejects.toThrow(BlockedAddressError);
    await expect(vet(raw, publicPolicy)).rejects.toThrow(message);
    await expect(vet(raw)).rejects.toThrow(BlockedAddressError);
  });

  it('refuses a name when any one of its addresses is refused', async () => {
    await expect(vet('http://mixed.test/')).rejects.toThrow(
      'mixed.test resolves to 127.0.0.2: 127.0.0.2 is not in NET_ALLOW_CIDRS',
    );
  });

  it('gives DnsError when a name does not resolve', async () => {
    const err = await vet('http://nowhere.test/').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DnsError);
    expect((err as DnsError).pageCode).toBe('DNS');
    expect((err as DnsError).message).toBe('nowhere.test does not resolve (ENOTFOUND)');
    await expect(vet('http://empty.test/')).rejects.toThrow(DnsError);
  });
});
