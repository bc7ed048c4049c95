import { createAddressPolicy } from './address-policy';

// Pure judgements: none of these addresses is ever dialed.
describe('AddressPolicy', () => {
  describe('public mode, nothing opened', () => {
    const policy = createAddressPolicy({ mode: 'public', allowCidrs: [] });

    it.each([
      ['10.0.0.1', /private/],
      ['172.16.5.4', /private/],
      ['192.168.1.1', /private/],
      ['100.64.0.1', /carrier-grade NAT/],
      ['127.0.0.1', /loopback/],
      ['127.0.0.2', /loopback/],
      ['0.0.0.0', /unspecified/],
      ['169.254.169.254', /metadata/],
      ['169.254.0.1', /link-local/],
      ['fe80::1', /link-local/],
      ['fd00:ec2::254', /metadata/],
      ['fd12:3456::1', /unique-local/],
      ['::1', /loopback/],
      ['::', /unspecified/],
      ['::ffff:127.0.0.2', /loopback/],
      ['::ffff:10.0.0.1', /private/],
      ['::ffff:169.254.169.254', /metadata/],
      ['64:ff9b::a00:1', /embedding a private/],
      ['64:ff9b:1::a00:1', /local-use NAT64/],
      ['2002:a00:1::1', /embedding a private/],
      ['2002:7f00:1::1', /embedding a loopback/],
      // Teredo client 10.0.0.1 is stored inverted: f5ff:fffe.
      ['2001:0:4136:e378:8000:63bf:f5ff:fffe', /embedding a private/],
      ['::a00:1', /outside global unicast/],
      ['224.0.0.1', /multicast/],
      ['ff02::1', /multicast/],
      ['255.255.255.255', /broadcast/],
      ['192.0.2.1', /reserved/],
      ['240.0.0.1', /reserved/],
      ['2001:db8::1', /reserved/],
      ['fe80::1%eth0', /link-local/],
      ['2130706433', /not an IP address/],
      ['0x7f000001', /not an IP address/],
      ['localhost', /not an IP address/],
    ])('refuses %s', (ip, reason) => {
      expect(policy.isAllowed(ip)).toBe(false);
      expect(policy.explain(ip)).toMatch(reason);
    });

    it.each([
      '8.8.8.8',
      '1.1.1.1',
      '93.184.216.34',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ])('allows the public address %s', (ip) => {
      expect(policy.isAllowed(ip)).toBe(true);
      expect(policy.explain(ip)).toBe('allowed');
    });
  });

  describe('public mode with ranges opened', () => {
    const policy = createAddressPolicy({ mode: 'public', allowCidrs: ['10.1.0.0/16', '169.254.0.0/16'] });

    it('allows the opened ranges next to public addresses', () => {
      expect(policy.isAllowed('10.1.2.3')).toBe(true);
      expect(policy.isAllowed('::ffff:10.1.2.3')).toBe(true);
      expect(policy.isAllowed('8.8.8.8')).toBe(true);
      expect(policy.isAllowed('10.2.0.1')).toBe(false);
    });

    it('never opens a cloud metadata endpoint, even inside an opened range', () => {
      expect(policy.isAllowed('169.254.0.1')).toBe(true);
      expect(policy.isAllowed('169.254.169.254')).toBe(false);
    });
  });

  describe('allowlist mode with 127.0.0.1/32', () => {
    const policy = createAddressPolicy({ mode: 'allowlist', allowCidrs: ['127.0.0.1/32'] });

    it('allows only 127.0.0.1 (and its IPv4-mapped form)', () => {
      expect(policy.isAllowed('127.0.0.1')).toBe(true);
      expect(policy.isAllowed('::ffff:127.0.0.1')).toBe(true);
    });

    it.each([
      '127.0.0.2',
      '::1',
      '::ffff:127.0.0.2',
      '10.0.0.1',
      '169.254.169.254',
      '8.8.8.8',
      '1.1.1.1',
      '2606:4700:4700::1111',
      '93.184.216.34',
      '64:ff9b::7f00:1',
    ])('refuses %s', (ip) => {
      expect(policy.isAllowed(ip)).toBe(false);
      expect(policy.explain(ip)).toMatch(/not in NET_ALLOW_CIDRS|not an IP|metadata/);
    });
  });

  it('matches IPv6 ranges', () => {
    const policy = createAddressPolicy({ mode: 'allowlist', allowCidrs: ['::1/128', 'fd00:1::/32'] });
    expect(policy.isAllowed('::1')).toBe(true);
    expect(policy.isAllowed('fd00:1:2::3')).toBe(true);
    expect(policy.isAllowed('fd00:2::1')).toBe(false);
    expect(policy.isAllowed('127.0.0.1')).toBe(false);
  });

  it('refuses to build from a malformed CIDR', () => {
    expect(() => createAddressPolicy({ mode: 'allowlist', allowCidrs: ['127.0.0.1'] })).toThrow(/not a CIDR/);
  });
});
