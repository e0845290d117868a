import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { env } from '../config/env';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import type { QueryTerm } from './query-terms';
import { aboveFloor } from './term-floors';

/**
 * The postings an all-stores search reads for one term (its best ones, from its floor up, or all
 * of them), across every store, in product id order: the distinct stores once, each posting as an
 * index into them. Numbers are 4-byte floats, as the database stores them, so that sums and
 * scores match its own to the bit.
 */
export interface TermPostings {
  /** No floor: every posting of the term, so a product missing here does not hold it. */
  complete: boolean;
  stores: string[];
  storeOf: Uint32Array;
  productIds: Float64Array;
  impacts: Float32Array;
  tf: Float32Array;
  docLen: Float32Array;
}

/** Where the product's posting is in the list, or -1 (binary search on the product ids). */
export function postingIndex(list: TermPostings, productId: number): number {
  let lo = 0;
  let hi = list.productIds.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const id = list.productIds[mid]!;
    if (id === productId) return mid;
    if (id < productId) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * A version for the terms an indexing batch writes: random, so that a term deleted and created
 * again never comes back under a version a cache still holds.
 */
export function newTermVersion(): number {
  return randomInt(1, 2 ** 48);
}

/**
 * How long an entry is trusted although its version still matches. On one server a version
 * committed with its postings keys them exactly; on Citus a search can read a term's new version
 * from the coordinator while a worker is still committing its postings, and the entry loaded
 * then would hold the postings of before.
 */
const ENTRY_TTL_MS = 60_000;

function approximateBytes(entry: TermPostings): number {
  return (
    256 + 24 * entry.productIds.length + entry.stores.reduce((n, s) => n + 48 + 2 * s.length, 0)
  );
}

let cache: { mb: number; entries: LRUCache<string, TermPostings> | null } | undefined;

/** The cache at the configured bound (POSTINGS_CACHE_MB; 0: none), made anew if that changed. */
function termCache(): LRUCache<string, TermPostings> | null {
  const mb = env().POSTINGS_CACHE_MB;
  if (cache?.mb !== mb) {
    const entries =
      mb > 0
        ? new LRUCache<string, TermPostings>({
            maxSize: mb * 1048576,
            sizeCalculation: approximateBytes,
            ttl: ENTRY_TTL_MS,
          })
        : null;
    cache = { mb, entries };
  }
  return cache.entries;
}

/** Empties the cache (tests). */
export function clearTermPostingsCache(): void {
  cache = undefined;
}

/** A term's entry is valid for the version and floor the search read with the query's statistics. */
function keyOf(term: QueryTerm): string {
  return `${term.term}\u0000${term.version}\u0000${term.floor ?? ''}`;
}

/** The read an all-stores search makes of one term (retrieve.ts termRead, across stores). */
function termRead(term: QueryTerm, i: number) {
  return sql`SELECT ${i}::int AS i, sp.store_id, sp.product_id, sp.impact, sp.tf, sp.doc_len
    FROM search_postings sp WHERE sp.term = ${term.term} AND ${aboveFloor(term.floor, 'sp')}`;
}

/** A posting as the load packs it: store id, product id, impact, tf, document length. */
type PackedPosting = [string, number | string, number, number, number];

function toPostings(packed: PackedPosting[], complete: boolean): TermPostings {
  const stores: string[] = [];
  const storeIndex = new Map<string, number>();
  const entry: TermPostings = {
    complete,
    stores,
    storeOf: new Uint32Array(packed.length),
    productIds: new Float64Array(packed.length),
    impacts: new Float32Array(packed.length),
    tf: new Float32Array(packed.length),
    docLen: new Float32Array(packed.length),
  };
  packed.forEach(([store, product, impact, tf, docLen], k) => {
    let s = storeIndex.get(store);
    if (s === undefined) {
      s = stores.push(store) - 1;
      storeIndex.set(store, s);
    }
    entry.storeOf[k] = s;
    entry.productIds[k] = Number(product);
    entry.impacts[k] = impact;
    entry.tf[k] = tf;
    entry.docLen[k] = docLen;
  });
  return entry;
}

/**
 * The postings each term of an all-stores search reads, in the order of `terms`: from the
 * cache, and the missing ones in one statement. Undefined when the cache is off (POSTINGS_CACHE_MB
 * 0) or a term carries no version, so that the search reads them in SQL instead.
 */
export async function termPostings(
  db: Db,
  terms: readonly QueryTerm[],
): Promise<TermPostings[] | undefined> {
  const held = termCache();
  if (!held || terms.some((t) => t.version === undefined)) return undefined;
  const found = terms.map((t) => held.get(keyOf(t)));
  const missing = terms.flatMap((t, i) => (found[i] ? [] : [i]));
  if (missing.length > 0) {
    const reads = missing.map((i) => termRead(terms[i]!, i));
    const rows = await queryRows<{ i: number; postings: string }>(
      db,
      sql`SELECT r.i, json_agg(json_build_array(r.store_id, r.product_id, r.impact, r.tf, r.doc_len)
                               ORDER BY r.product_id)::text AS postings
          FROM (${sql.join(reads, sql` UNION ALL `)}) r GROUP BY r.i`,
    );
    const packed = new Map(
      rows.map((r) => [Number(r.i), JSON.parse(r.postings) as PackedPosting[]]),
    );
    for (const i of missing) {
      const entry = toPostings(packed.get(i) ?? [], terms[i]!.floor === undefined);
      held.set(keyOf(terms[i]!), entry);
      found[i] = entry;
    }
  }
  return found as TermPostings[];
}
