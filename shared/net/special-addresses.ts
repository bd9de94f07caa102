import { BlockList, isIP } from 'node:net';

/**
 * The ranges of the IANA IPv4 and IPv6 Special-Purpose Address Registries that are not globally
 * reachable, with multicast and the reserved 240/4: no address in them is a place on the internet a
 * tenant's setting may send the platform to.
 */
const IPV4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the limited broadcast 255.255.255.255
];

/** IPv6 ranges refused as they are; the ones that embed an IPv4 address are judged by it (`embeddedIpv4`). */
const IPV6: readonly (readonly [string, number])[] = [
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, benchmarking, …)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
];

const V4 = new BlockList();
for (const [net, prefix] of IPV4) V4.addSubnet(net, prefix, 'ipv4');
const V6 = new BlockList();
for (const [net, prefix] of IPV6) V6.addSubnet(net, prefix, 'ipv6');

/** The 16 bytes of an IPv6 address (without a zone), or null when it is not one. */
function ipv6Bytes(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address;
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    text = `${dotted[1]}0:0`;
    tail.push(...dotted[2]!.split('.').map(Number));
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':').filter((g) => g !== '') : []);
  const left = groups(head);
  const right = groups(rest);
  const all = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const bytes = all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

const v4Of = (bytes: number[], at: number) => bytes.slice(at, at + 4).join('.');
const zeros = (bytes: number[], from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);

/**
 * The IPv4 address an IPv6 address stands for, where it stands for one: IPv4-mapped (`::ffff:a.b.c.d`),
 * the well-known NAT64 prefix (`64:ff9b::a.b.c.d`) and 6to4 (`2002:AABB:CCDD::`); such an address is
 * reachable exactly where its IPv4 address is.
 */
function embeddedIpv4(bytes: number[]): string | null {
  if (zeros(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return v4Of(bytes, 12);
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(bytes, 4, 12)) return v4Of(bytes, 12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return v4Of(bytes, 2);
  return null;
}

/**
 * Whether `address` (an IP address as text; a zone `%eth0` is ignored) is one no tenant setting may
 * reach: in a special-purpose range above, an IPv6 address outside the global unicast 2000::/3 (the
 * unspecified, loopback and IPv4-compatible `::a.b.c.d` among them), or one that embeds such an IPv4
 * address. Text that is not an IP address is not judged here (resolve it first).
 */
export function isSpecialPurposeAddress(address: string): boolean {
  const plain = address.replace(/%.*$/, '');
  const family = isIP(plain);
  if (family === 4) return V4.check(plain, 'ipv4');
  const bytes = ipv6Bytes(plain);
  if (!bytes) return false;
  const v4 = embeddedIpv4(bytes);
  if (v4 !== null) return V4.check(v4, 'ipv4');
  return (bytes[0]! & 0xe0) !== 0x20 || V6.check(plain, 'ipv6');
}
