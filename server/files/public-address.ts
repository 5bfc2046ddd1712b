/**
 * Whether an IP address is a public one the server may fetch a file from: never its own
 * loopback, the private networks around it, link-local (cloud metadata at 169.254.169.254),
 * multicast, or any other special-purpose range (IANA's IPv4 and IPv6 special-purpose address
 * registries). IPv6 forms that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, NAT64
 * `64:ff9b::/96`, 6to4 `2002::/16`) are judged by the IPv4 address inside.
 *
 * Anything that does not parse as an address is not public: the check fails closed.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** Decides whether the server may connect to an address (tests allow their own 127.0.0.1). */
export type AddressPolicy = (address: string) => boolean;

const IPV4_NOT_PUBLIC: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

/** Inside global unicast (2000::/3), the blocks that are not reachable public hosts. */
const IPV6_NOT_PUBLIC: Array<[string, number]> = [
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, benchmarking, ...)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
];

const notPublicV4 = new BlockList();
for (const [network, prefix] of IPV4_NOT_PUBLIC) notPublicV4.addSubnet(network, prefix, 'ipv4');
const notPublicV6 = new BlockList();
for (const [network, prefix] of IPV6_NOT_PUBLIC) notPublicV6.addSubnet(network, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail folded in), or null. */
export function ipv6Groups(address: string): number[] | null {
  if (!isIPv6(address) || address.includes('%')) return null;
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const octets = dotted[1]!.split('.').map(Number);
    text = `${text.slice(0, -dotted[1]!.length)}${((octets[0]! << 8) | octets[1]!).toString(16)}:${((octets[2]! << 8) | octets[3]!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (side: string) => (side === '' ? [] : side.split(':').map((group) => parseInt(group, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const groups = tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

function isPublicIPv4(address: string): boolean {
  return isIPv4(address) && !notPublicV4.check(address, 'ipv4');
}

/** Whether the server may fetch from `address` (an IPv4 or IPv6 address, no brackets). */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return isPublicIPv4(address);
  const groups = ipv6Groups(address);
  if (!groups) return false;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  // ::ffff:a.b.c.d (IPv4-mapped): a connection to it is a connection to a.b.c.d.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return isPublicIPv4(ipv4Of(g6, g7));
  // 64:ff9b::a.b.c.d (NAT64, well-known prefix): translated to a.b.c.d.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isPublicIPv4(ipv4Of(g6, g7));
  // 2002:aabb:ccdd::/48 (6to4): relayed to aa.bb.cc.dd.
  if (g0 === 0x2002) return isPublicIPv4(ipv4Of(g1, g2));
  // Everything outside global unicast (2000::/3) is special: unspecified, loopback,
  // IPv4-compatible, discard, unique local (fc00::/7), link-local (fe80::/10), multicast (ff00::/8).
  if ((g0 & 0xe000) !== 0x2000) return false;
  return !notPublicV6.check(address, 'ipv6');
}
