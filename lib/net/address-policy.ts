import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * Whether an image fetch may connect to an address. A URL pointing into our own network
 * (loopback, private, link-local with the cloud metadata service at 169.254.169.254, carrier-grade
 * NAT, reserved and documentation ranges, multicast) would let a caller probe or read it, so
 * only globally routable unicast addresses pass. The ranges are ipaddr.js's (IANA's special
 * registries), not a list kept here.
 *
 * IPv6 addresses that carry an IPv4 address are judged by that IPv4 address, since that is
 * where a packet to them can end up: IPv4-compatible `::a.b.c.d` (`::7f00:1`), IPv4-mapped
 * `::ffff:a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d` and 6to4
 * `2002:aabb:ccdd::`. The local-use NAT64 prefix `64:ff9b:1::/48` (a site's own translator),
 * Teredo (which tunnels to an address it obscures) and everything outside 2000::/3, the only
 * block IANA hands out for global unicast, are refused whole.
 */

const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/** The IPv4 destination an IPv6 address carries, for the ranges that carry one. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const parts = address.parts;
  const ipv4 = (hi: number, lo: number) =>
    new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (address.match(IPV4_COMPATIBLE)) return ipv4(parts[6]!, parts[7]!);
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return ipv4(parts[6]!, parts[7]!);
    case 'rfc6052':
      return address.match(NAT64_WELL_KNOWN) ? ipv4(parts[6]!, parts[7]!) : undefined;
    case '6to4':
      return ipv4(parts[1]!, parts[2]!);
    default:
      return undefined;
  }
}

function isPublicIpv6(address: ipaddr.IPv6): boolean {
  const ipv4 = embeddedIpv4(address);
  if (ipv4) return ipv4.range() === 'unicast';
  return address.range() === 'unicast' && address.match(GLOBAL_UNICAST);
}

/** True when `address` (an IP literal as DNS or a URL gives it) is routable on the public internet. */
export function isPublicAddress(address: string): boolean {
  // node:net decides what counts as a literal, so ipaddr.js's lenient IPv4 forms ("0x7f.1") never do.
  const family = isIP(address);
  if (family === 0) return false;
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv4'
    ? parsed.range() === 'unicast'
    : isPublicIpv6(parsed as ipaddr.IPv6);
}
