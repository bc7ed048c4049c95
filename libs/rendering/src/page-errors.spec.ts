import { contentKind, isPdf, unsupportedReason } from './content/content-kind';
import { chromiumNetError, codeOfNetError, statusError } from './page-errors';

describe('statusError', () => {
  it.each([
    [200, undefined],
    [304, undefined],
    [null, undefined],
    [400, 'HTTP_4XX'],
    [404, 'HTTP_4XX'],
    [499, 'HTTP_4XX'],
    [500, 'HTTP_5XX'],
    [503, 'HTTP_5XX'],
  ])('maps status %p to %p', (status, code) => {
    expect(statusError(status)?.code).toBe(code);
  });
});

describe('Chromium net errors', () => {
  it('finds the error name in Playwright and Puppeteer messages', () => {
    expect(chromiumNetError('page.goto: net::ERR_NAME_NOT_RESOLVED at https://x.test/\nCall log: ...')).toBe(
      'ERR_NAME_NOT_RESOLVED',
    );
    expect(chromiumNetError('net::ERR_CERT_AUTHORITY_INVALID at https://x.test')).toBe(
      'ERR_CERT_AUTHORITY_INVALID',
    );
    expect(chromiumNetError('Navigation timeout of 3000 ms exceeded')).toBeUndefined();
  });

  it.each([
    ['ERR_NAME_NOT_RESOLVED', 'DNS'],
    ['ERR_CERT_AUTHORITY_INVALID', 'TLS'],
    ['ERR_CERT_COMMON_NAME_INVALID', 'TLS'],
    ['ERR_SSL_PROTOCOL_ERROR', 'TLS'],
    ['ERR_CONNECTION_TIMED_OUT', 'TIMEOUT'],
    ['ERR_CONNECTION_REFUSED', 'CONNECT'],
    ['ERR_CONNECTION_RESET', 'CONNECT'],
    ['ERR_EMPTY_RESPONSE', 'CONNECT'],
    ['ERR_TOO_MANY_REDIRECTS', 'CONNECT'],
    ['ERR_UNSAFE_PORT', 'BLOCKED_ADDRESS'],
    ['ERR_BLOCKED_BY_CLIENT', 'UNSUPPORTED_CONTENT'],
    ['ERR_RESPONSE_HEADERS_TOO_BIG', 'TOO_LARGE'],
  ])('maps %s to %s', (netError, code) => {
    expect(codeOfNetError(netError)).toBe(code);
  });
});

describe('contentKind', () => {
  it('knows a PDF by its signature within the first 1024 bytes', () => {
    expect(isPdf(Buffer.from('%PDF-1.7\n'))).toBe(true);
    expect(isPdf(Buffer.concat([Buffer.alloc(1000, 0x20), Buffer.from('%PDF-1.4')]))).toBe(true);
    expect(isPdf(Buffer.concat([Buffer.alloc(1020, 0x20), Buffer.from('%PDF-1.4')]))).toBe(false);
    expect(isPdf(Buffer.from('<!doctype html>'))).toBe(false);
  });

  it.each([
    [undefined, undefined, 'html'],
    ['text/html; charset=utf-8', undefined, 'html'],
    ['application/xhtml+xml', undefined, 'html'],
    ['text/plain', undefined, 'text'],
    ['text/csv', undefined, 'text'],
    ['application/xml', undefined, 'text'],
    ['application/rss+xml', undefined, 'text'],
    ['application/json', undefined, 'json'],
    ['application/ld+json; charset=utf-8', undefined, 'json'],
    ['application/pdf', undefined, 'pdf'],
    ['application/pdf; qs=0.9', 'attachment; filename="report.pdf"', 'pdf'],
    ['image/png', undefined, 'unsupported'],
    ['application/octet-stream', undefined, 'unsupported'],
    ['text/csv', 'attachment; filename="a.csv"', 'unsupported'],
    ['text/html', 'inline', 'html'],
  ])('%s (%s) is %s', (type, disposition, kind) => {
    expect(contentKind(type, disposition)).toBe(kind);
  });

  it('says why a document is not a page', () => {
    expect(unsupportedReason('image/png; x=y')).toBe('the document is image/png, not a page');
    expect(unsupportedReason('text/csv', 'attachment')).toMatch(/download/);
  });
});
