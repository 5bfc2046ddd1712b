/**
 * Which addresses the server may fetch a file from (`POST /api/files/from-url`): public ones
 * only. Loopback, private, link-local (cloud metadata), multicast and the other special-purpose
 * ranges are refused, in IPv4 and IPv6, and IPv6 forms that carry an IPv4 address are judged
 * by it. Whatever does not parse as an address is refused.
 */
import { describe, expect, it } from 'vitest';
import { ipv6Groups, isPublicAddress } from '../../server/files/public-address.js';

describe('public addresses', () => {
  it.each([
    ['127.0.0.1', 'IPv4 loopback'],
    ['127.255.255.254', 'the rest of 127/8'],
    ['10.0.0.1', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'the end of 172.16/12'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local: cloud metadata'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', '"this host"'],
    ['192.0.2.10', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, in hex'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['2002:a00:1::1', '6to4 of 10.0.0.1'],
    ['fe80::1', 'IPv6 link-local'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'IPv6 multicast'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['2001::1', 'Teredo'],
    ['100::1', 'discard'],
    ['fe80::1%eth0', 'a zone index'],
    ['localhost', 'a name, not an address'],
    ['', 'nothing'],
    ['1.2.3', 'not an address'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['93.184.215.14'],
    ['8.8.8.8'],
    ['172.32.0.1'],
    ['192.169.0.1'],
    ['2606:4700:4700::1111'],
    ['2a00:1450:4001:80b::200e'],
    ['::ffff:8.8.8.8'],
    ['64:ff9b::808:808'],
    ['2002:808:808::1'],
  ])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('reads IPv6 in any of its spellings', () => {
    expect(ipv6Groups('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(ipv6Groups('2001:db8::8:800:200c:417a')).toEqual([0x2001, 0xdb8, 0, 0, 8, 0x800, 0x200c, 0x417a]);
    expect(ipv6Groups('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Groups('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('127.0.0.1')).toBeNull();
  });
});
