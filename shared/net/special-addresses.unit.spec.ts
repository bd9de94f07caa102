import { describe, expect, it } from 'vitest';
import { isSpecialPurposeAddress } from './special-addresses.js';

// Addresses as text only: nothing here connects anywhere.
describe('special-purpose addresses (IANA registries, not globally reachable)', () => {
  it.each([
    ['0.0.0.0/8', '0.1.2.3'],
    ['10/8', '10.255.0.1'],
    ['100.64/10 carrier-grade NAT', '100.127.255.254'],
    ['127/8 loopback', '127.0.0.2'],
    ['169.254/16 link-local', '169.254.169.254'],
    ['172.16/12', '172.31.255.255'],
    ['192.0.0/24 protocol assignments', '192.0.0.8'],
    ['192.0.2/24 documentation', '192.0.2.10'],
    ['192.88.99/24 6to4 relay', '192.88.99.1'],
    ['192.168/16', '192.168.1.1'],
    ['198.18/15 benchmarking', '198.19.255.255'],
    ['198.51.100/24 documentation', '198.51.100.7'],
    ['203.0.113/24 documentation', '203.0.113.9'],
    ['224/4 multicast', '239.255.255.250'],
    ['240/4 reserved', '250.1.2.3'],
    ['limited broadcast', '255.255.255.255'],
    [':: unspecified', '::'],
    ['::1 loopback', '::1'],
    ['::ffff:0:0/96 mapped loopback', '::ffff:127.0.0.1'],
    ['::ffff:0:0/96 mapped private, hexadecimal', '::ffff:a00:1'],
    ['::/96 IPv4-compatible', '::8.8.8.8'],
    ['64:ff9b::/96 NAT64 of a loopback', '64:ff9b::127.0.0.1'],
    ['64:ff9b::/96 NAT64 of a private address, hexadecimal', '64:ff9b::c0a8:101'],
    ['64:ff9b:1::/48 local-use NAT64', '64:ff9b:1::808:808'],
    ['100::/64 discard-only', '100::1'],
    ['2001::/23 protocol assignments (Teredo)', '2001:0:4136:e378::1'],
    ['2001::/23 protocol assignments (ORCHIDv2)', '2001:20::1'],
    ['2001:db8::/32 documentation', '2001:db8:85a3::8a2e:370:7334'],
    ['2002::/16 6to4 of a loopback', '2002:7f00:1::1'],
    ['2002::/16 6to4 of a private address', '2002:c0a8:101::1'],
    ['3fff::/20 documentation', '3fff:0:1::1'],
    ['fc00::/7 unique local', 'fd12:3456::1'],
    ['fe80::/10 link-local', 'fe80::1'],
    ['fe80::/10 link-local with a zone', 'fe80::1%eth0'],
    ['ff00::/8 multicast', 'ff02::1'],
    ['outside 2000::/3 (unallocated)', '4000::1'],
  ])('refuses %s (%s)', (_range, address) => {
    expect(isSpecialPurposeAddress(address)).toBe(true);
  });

  it.each([
    ['a public IPv4 address', '8.8.8.8'],
    ['next to 198.18/15', '198.20.0.1'],
    ['next to 100.64/10', '100.128.0.1'],
    ['next to 172.16/12', '172.32.0.1'],
    ['a public IPv6 address', '2606:4700:4700::1111'],
    ['just after 2001::/23', '2001:200::1'],
    ['mapped public IPv4', '::ffff:8.8.8.8'],
    ['NAT64 of a public IPv4 address', '64:ff9b::808:808'],
    ['6to4 of a public IPv4 address', '2002:808:808::1'],
  ])('allows %s (%s)', (_what, address) => {
    expect(isSpecialPurposeAddress(address)).toBe(false);
  });

  it('does not judge a name: it has to be resolved first', () => {
    expect(isSpecialPurposeAddress('localhost')).toBe(false);
  });
});
