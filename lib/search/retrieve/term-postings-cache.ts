import { sql } from 'drizzle-orm';
import { env } from '../../config/env';
import { configuredCache } from './configured-cache';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/client';
import { packedArrays, packedRows } from '../../sql/packed-rows';
import type { QueryTerm } from '../query/query-terms';
import { aboveFloor, atOrAboveFloor, TERM_POSTINGS_READ } from '../index/term-floors';

/**
 * The postings an all-stores search reads for one term (all of them, or its best ones, from its
 * floor up, when it has one and too many), across every store, in product id order: the distinct
 * stores once, each posting as an index into them. Numbers are 4-byte floats, as the database
 * stores them, so that sums and scores match its own to the bit.
 */
export interface TermPostings extends PickedPostings {
  /** Every posting of the term, so a product missing here does not hold it. */
  complete: boolean;
  /**
   * For a term with a floor held whole (complete), the postings that reach the floor, in the
   * same order and form: the ones the lexical pick reads. Absent when it reads them all.
   */
  best?: PickedPostings;
  /**
   * For a term held whole, each store holding more postings than a one-store search reads (by
   * index into stores): its best ones, bestOfStore's, made once with the entry (crowdedStores).
   * Any other store's are all its postings in the list.
   */
  storeBest: ReadonlyMap<number, PickedPostings>;
  stores: string[];
  tf: Float32Array;
  docLen: Float32Array;
}

/** What the lexical pick reads of a posting: its store (an index into stores), product, impact. */
export interface PickedPostings {
  storeOf: Uint32Array;
  productIds: Float64Array;
  impacts: Float32Array;
}

/** The postings at these indexes of the list, in their order. */
function postingsAt(list: PickedPostings, kept: readonly number[]): PickedPostings {
  return {
    storeOf: Uint32Array.from(kept, (k) => list.storeOf[k]!),
    productIds: Float64Array.from(kept, (k) => list.productIds[k]!),
    impacts: Float32Array.from(kept, (k) => list.impacts[k]!),
  };
}

/**
 * The postings a one-store search reads of store `s` (an index into the list's stores), which
 * holds more than TERM_POSTINGS_READ of them, as lexical-sql.ts's bestPostingsOfStore does: its
 * best TERM_POSTINGS_READ by impact, ties by product id; in product id order. The cut is found by
 * a typed array's numeric sort: a comparator sort of a store's 15,000 postings of a term took
 * milliseconds.
 */
function bestOfStore(list: PickedPostings, s: number): PickedPostings {
  const held: number[] = [];
  for (let k = 0; k < list.productIds.length; k++) if (list.storeOf[k] === s) held.push(k);
  const impacts = Float64Array.from(held, (k) => list.impacts[k]!);
  const cut = impacts.sort()[impacts.length - TERM_POSTINGS_READ]!;
  // Those at the cut in product id order, the list's own.
  let room = TERM_POSTINGS_READ - held.filter((k) => list.impacts[k]! > cut).length;
  return postingsAt(
    list,
    held.filter((k) => list.impacts[k]! > cut || (list.impacts[k] === cut && room-- > 0)),
  );
}

/** bestOfStore of each store of a whole list that holds more postings than a search reads. */
export function crowdedStores(list: Omit<TermPostings, 'storeBest'>): Map<number, PickedPostings> {
  const held = new Uint32Array(list.stores.length);
  for (const s of list.storeOf) held[s]!++;
  const crowded = [...held.keys()].filter((s) => held[s]! > TERM_POSTINGS_READ);
  return new Map(crowded.map((s) => [s, bestOfStore(list, s)]));
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
 * How long an entry is trusted although its version still matches. On one server a version
 * committed with its postings keys them exactly; on Citus a search can read a term's new version
 * from the coordinator while a worker is still committing its postings, and the entry loaded
 * then would hold the postings of before.
 */
const ENTRY_TTL_MS = 60_000;

/**
 * A term with a floor held by at most this many products is cached whole, its postings below the
 * floor included: the scoring of the candidates then finds all of theirs here, and the search's
 * statement reads none. Held as its best postings only, the statement read the candidates'
 * postings of the term, one primary key probe per candidate: about a third of the statement's
 * time on PostgreSQL and PGlite (docs/search.md, Product search). At 24 bytes a posting and 16
 * more for each of the best, an entry is at most about 0.6 MB with its stores; a more common term
 * (at 10M products, some hold millions) keeps only its best.
 */
export const WHOLE_TERM_MAX = 20_000;

/** Whether the cache holds every posting of the term, or only those reaching its floor. */
const heldWhole = (term: QueryTerm) =>
  term.floor === undefined || (term.df !== undefined && term.df <= WHOLE_TERM_MAX);

function approximateBytes(entry: TermPostings): number {
  return (
    256 +
    24 * entry.productIds.length +
    16 * (entry.best?.productIds.length ?? 0) +
    [...entry.storeBest.values()].reduce((n, b) => n + 16 * b.productIds.length, 0) +
    entry.stores.reduce((n, s) => n + 48 + 2 * s.length, 0)
  );
}

const cache = configuredCache<TermPostings>({
  megabytes: () => env().POSTINGS_CACHE_MB,
  bytesOf: approximateBytes,
  ttlMs: ENTRY_TTL_MS,
});
const termCache = () => cache.entries();

/** Empties the cache (tests). */
export function clearTermPostingsCache(): void {
  cache.clear();
}

/**
 * A term's entry is valid for the version and floor the search read with the query's statistics,
 * held whole (its best postings then depend on the floor) or from the floor up.
 */
function keyOf(term: QueryTerm): string {
  return `${term.term}\u0000${term.version}\u0000${term.floor ?? ''}\u0000${heldWhole(term)}`;
}

/** One term's postings to cache: all of them, or those reaching its floor. */
function postingsToCache(term: QueryTerm, i: number) {
  const floor = heldWhole(term) ? undefined : term.floor;
  return sql`SELECT ${i}::int AS i, sp.store_id, sp.product_id, sp.impact, sp.tf, sp.doc_len
    FROM search_postings sp WHERE sp.term = ${term.term} AND ${aboveFloor(floor, 'sp')}`;
}

/** The postings that reach the floor, as the database's read (aboveFloor) finds them. */
function reaching(entry: TermPostings, floor: number): PickedPostings {
  const kept: number[] = [];
  for (let k = 0; k < entry.impacts.length; k++) {
    if (atOrAboveFloor(entry.impacts[k]!, floor)) kept.push(k);
  }
  return postingsAt(entry, kept);
}

/** A posting as the load packs it: store id, product id, impact, tf, document length. */
type PackedPosting = [string, number | string, number, number, number];
const POSTING_COLUMNS = ['store_id', 'product_id', 'impact', 'tf', 'doc_len'];

function toPostings(packed: PackedPosting[], term: QueryTerm): TermPostings {
  const complete = heldWhole(term);
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
    storeBest: new Map(),
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
  if (complete && term.floor !== undefined) entry.best = reaching(entry, term.floor);
  if (complete) entry.storeBest = crowdedStores(entry);
  return entry;
}

/** Whether termPostings answers for these terms: the cache is on and every term has a version. */
export function postingsCacheable(terms: readonly QueryTerm[]): boolean {
  return termCache() !== null && terms.every((t) => t.version !== undefined);
}

/**
 * Whether the cache holds every posting of each term, and so each store's best ones, which a
 * one-store search reads (bestPostingsOfStore): it holds only a term's best across all stores
 * once more than WHOLE_TERM_MAX products hold it.
 */
export function postingsHeldWhole(terms: readonly QueryTerm[]): boolean {
  return terms.every(heldWhole);
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
  if (!held || !postingsCacheable(terms)) return undefined;
  const found = terms.map((t) => held.get(keyOf(t)));
  const missing = terms.flatMap((t, i) => (found[i] ? [] : [i]));
  if (missing.length > 0) {
    const reads = missing.map((i) => postingsToCache(terms[i]!, i));
    const packing = packedRows(POSTING_COLUMNS, { alias: 'r', orderBy: sql.raw('r.product_id') });
    const rows = await queryRows<{ i: number; postings: string }>(
      db,
      sql`SELECT r.i, ${packing}::text AS postings
          FROM (${sql.join(reads, sql` UNION ALL `)}) r GROUP BY r.i`,
    );
    const packed = new Map(rows.map((r) => [Number(r.i), packedArrays<PackedPosting>(r.postings)]));
    for (const i of missing) {
      const entry = toPostings(packed.get(i) ?? [], terms[i]!);
      held.set(keyOf(terms[i]!), entry);
      found[i] = entry;
    }
  }
  return found as TermPostings[];
}
