import { randomInt } from 'node:crypto';

/**
 * A version for what an index write changes (a term's postings, a store's vectors), under which
 * the app's caches hold it: random, so that a row deleted and created again never comes back
 * under a version a cache still holds.
 */
export function newCacheVersion(): number {
  return randomInt(1, 2 ** 48);
}
