import { RefusalLog } from './refusal-log';

describe('RefusalLog', () => {
  const log = new RefusalLog();
  log.record({ code: 'BLOCKED_ADDRESS', host: '::1', port: 8080, reason: '::1 is not in NET_ALLOW_CIDRS' });
  log.record({ code: 'DNS', host: 'gone.test', port: 443, reason: 'gone.test does not resolve' });

  it('finds refusals by host and port, IPv6 brackets and default ports included', () => {
    expect(log.find('http://[::1]:8080/page')?.code).toBe('BLOCKED_ADDRESS');
    expect(log.find('https://GONE.test/')?.code).toBe('DNS');
    expect(log.find('http://gone.test/')).toBeUndefined();
    expect(log.find('http://[::1]:8081/')).toBeUndefined();
    expect(log.find('not a url')).toBeUndefined();
  });

  it("confirms a page's x-egress-blocked header only when the proxy refused that target", () => {
    expect(log.confirms('http://[::1]:8080/', 'BLOCKED_ADDRESS')).toBe('BLOCKED_ADDRESS');
    expect(log.confirms('http://[::1]:8080/', 'DNS')).toBeUndefined();
    expect(log.confirms('http://127.0.0.1:8080/', 'BLOCKED_ADDRESS')).toBeUndefined();
    expect(log.confirms('http://[::1]:8080/', undefined)).toBeUndefined();
  });
});
