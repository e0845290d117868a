import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './address-policy';

/**
 * Where an outgoing request to a URL someone else gave us (an image, an agent's profile, its
 * webhook) may connect: http(s) only, no credentials, and every address its host resolves to
 * public, unless the host is allowed by name or address. The address checked is the one to
 * connect to (pinnedLookup), so DNS cannot answer differently in between (no rebinding).
 */

export interface TargetPolicy {
  /** One deadline for the caller's whole request; a stalled DNS lookup gives up with it. */
  signal: AbortSignal;
  /** Hosts or IP literals (lower case) that may be private. */
  allowHosts: ReadonlySet<string>;
  /** The caller trusts this URL whatever its address (the in-process demo shop's images). */
  trusted?: boolean;
}

export type ResolvedTarget =
  | { ok: true; address: string; family: 4 | 6 }
  | {
      ok: false;
      /** scheme and credentials: the URL itself is refused; private: where it leads is. */
      why: 'scheme' | 'credentials' | 'private' | 'unresolved';
      host: string;
      /** For `private`: whether the host is that private address itself, or resolved to one. */
      literal?: boolean;
    };

/** The OS resolver takes no abort signal; a stalled lookup must not outlive the deadline. */
function withDeadline<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new Error('aborted'));
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** Validates scheme and credentials, resolves DNS once, and returns the address to connect to. */
export async function resolveTarget(url: URL, policy: TargetPolicy): Promise<ResolvedTarget> {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, why: 'scheme', host };
  }
  if (url.username || url.password) return { ok: false, why: 'credentials', host };
  let candidates: { address: string; family: number }[];
  if (isIP(host)) {
    candidates = [{ address: host, family: isIP(host) }];
  } else {
    try {
      candidates = await withDeadline(
        policy.signal,
        dnsLookup(host, { all: true, verbatim: true }),
      );
    } catch (err) {
      if (policy.signal.aborted) throw new Error('deadline passed while resolving', { cause: err });
      return { ok: false, why: 'unresolved', host };
    }
  }
  const allowed = policy.allowHosts.has(host) || policy.trusted === true;
  for (const c of candidates) {
    // Every address must be public: DNS answers rotate, and one private answer is enough to abuse.
    if (!allowed && !policy.allowHosts.has(c.address) && !isPublicAddress(c.address)) {
      return { ok: false, why: 'private', host, literal: c.address === host };
    }
  }
  // IPv4 first: many hosts publish AAAA records that a server without IPv6 routing cannot reach.
  const chosen = candidates.find((c) => c.family === 4) ?? candidates[0];
  if (!chosen) return { ok: false, why: 'unresolved', host };
  return { ok: true, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

/** A lookup that always answers with the address already checked, so DNS cannot change it. */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}
