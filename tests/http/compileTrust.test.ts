import fc from 'fast-check';
import proxyaddr from 'proxy-addr';
import { compileTrust } from '../../src/http/RequestUri';

const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));
const ipv6 = fc.ipV6();

describe('compileTrust(list)', () => {
  test('an empty list trusts nobody', () => {
    expect(compileTrust([])('127.0.0.1', 0)).toBe(false);
  });

  test('answers as proxy-addr does, for addresses seen once or many times (property)', () => {
    const list = ['loopback', '10.0.0.0/8', '192.168.1.7', 'fc00::/7'];
    const trust = compileTrust(list);
    const reference = proxyaddr.compile(list);
    fc.assert(fc.property(fc.array(fc.oneof(ipv4, ipv6, fc.constantFrom('127.0.0.1', '10.1.2.3', '192.168.1.7', '::1', 'not-an-ip', '')), { maxLength: 3000 }), (addresses) => {
      // repeated twice, more distinct addresses than the function remembers
      for (const a of [...addresses, ...addresses]) expect(trust(a, 0)).toBe(reference(a, 0));
    }), { numRuns: 30 });
  });
});
