const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;

/**
 * A store domain as stored, as used in checkout links and as compared with what the platform
 * reports: the lower-case host name only. Operators paste URLs, so a scheme, path, query or
 * trailing dot is dropped; anything that is still not a host name (a port, credentials, spaces, a
 * bare word) gives undefined.
 */
export function storeHost(input: string): string | undefined {
  const host = input
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/\.$/, '');
  return HOSTNAME.test(host) ? host : undefined;
}
