import { LRUCache } from 'lru-cache';

/** An LRU of entries sized in bytes, bounded by a setting in MB that tests may change. */
export interface ConfiguredCache<V extends object> {
  /** The cache at the setting's bound, made anew if the setting changed; null when it is 0. */
  entries(): LRUCache<string, V> | null;
  /** Empties the cache (tests). */
  clear(): void;
}

export function configuredCache<V extends object>(options: {
  megabytes: () => number;
  bytesOf: (entry: V) => number;
  ttlMs: number;
}): ConfiguredCache<V> {
  let made: { mb: number; entries: LRUCache<string, V> | null } | undefined;
  return {
    entries() {
      const mb = options.megabytes();
      if (made?.mb !== mb) {
        const entries =
          mb > 0
            ? new LRUCache<string, V>({
                maxSize: mb * 1048576,
                sizeCalculation: options.bytesOf,
                ttl: options.ttlMs,
              })
            : null;
        made = { mb, entries };
      }
      return made.entries;
    },
    clear() {
      made = undefined;
    },
  };
}
