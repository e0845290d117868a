import { LRUCache } from 'lru-cache';
import { env } from '../../config/env';
import { analyze } from '../query/analyzer';

/** Rough bytes a cached title takes on the V8 heap: two per character, and each token's header. */
function approximateBytes(tokens: readonly string[], title: string): number {
  return 64 + 2 * title.length + tokens.reduce((sum, t) => sum + 40 + 2 * t.length, 0);
}

let cache: LRUCache<string, readonly string[]> | undefined;

/**
 * A candidate's title as the ranker reads it (analyze, document side). Every search analyzes
 * all its candidates' titles (about 3 ms for 150 of them), and popular products are candidates
 * of many searches, so the analyses are kept: a cache only (the title is the key), bounded by
 * TITLE_CACHE_MB, least recently used out first.
 */
export function analyzedTitle(title: string): readonly string[] {
  cache ??= new LRUCache<string, readonly string[]>({
    maxSize: env().TITLE_CACHE_MB * 1048576,
    sizeCalculation: approximateBytes,
  });
  const hit = cache.get(title);
  if (hit) return hit;
  const tokens = analyze(title);
  cache.set(title, tokens);
  return tokens;
}
