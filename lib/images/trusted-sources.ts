/**
 * URL prefixes image fetching may reach although their host is private: only the product
 * images of the demo's store simulator, which runs inside this process on loopback
 * (`{shop url}/cdn/`). Every other URL on that host and port, and every other private host,
 * stays refused. On globalThis: Next.js bundles the boot step (which starts the simulator)
 * apart from the route handlers that fetch query images.
 */
const slot = globalThis as unknown as { __trustedImagePrefixes?: Set<string> };

function prefixes(): Set<string> {
  return (slot.__trustedImagePrefixes ??= new Set());
}

/** Trusts URLs under `prefix` (an absolute URL ending in `/`); returns the undo. */
export function trustImagePrefix(prefix: string): () => void {
  const normalized = new URL(prefix).href;
  if (!normalized.endsWith('/')) throw new Error(`An image prefix must end with /: ${prefix}`);
  prefixes().add(normalized);
  return () => prefixes().delete(normalized);
}

/** The prefixes trusted now (the server shares them with the CLI through its lock file). */
export function trustedImagePrefixes(): string[] {
  return [...prefixes()];
}

/** Whether `url` (already parsed, so `..` and the like are resolved) is under a trusted prefix. */
export function isTrustedImageUrl(url: URL): boolean {
  for (const prefix of prefixes()) if (url.href.startsWith(prefix)) return true;
  return false;
}
