// @no-test-database
import { describe, expect, it } from 'vitest';
import { isPublicAddress } from './address-policy';

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['2606:4700:4700::1111'],
    ['::ffff:8.8.8.8'],
    ['64:ff9b::808:808'],
    ['2002:808:808::1'],
  ])('lets %s through', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.8', 'private'],
    ['172.16.4.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local, cloud metadata'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['192.0.2.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fd00::1', 'unique local'],
    ['ff02::1', 'IPv6 multicast'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['::a9fe:a9fe', 'IPv4-compatible metadata'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::ffff:a00:1', 'IPv4-mapped private'],
    ['::ffff:0:7f00:1', 'SIIT (IPv4-translated) loopback'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:a9fe:a9fe::1', '6to4 of the metadata service'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::a00:1', 'NAT64 of a private address'],
    ['64:ff9b:1::808:808', 'local-use NAT64'],
    ['2001::1', 'Teredo'],
    ['4000::1', 'outside global unicast'],
    ['localhost', 'not an address'],
    ['0x7f.1', 'not a literal node accepts'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});
