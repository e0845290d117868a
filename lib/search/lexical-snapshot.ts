import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';

/** BM25 parameters: the usual ones; titles are short, so length normalization stays moderate. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

interface Postings {
  /** Dense document numbers (indexes into LexicalSnapshot.productIds), ascending. */
  docs: Int32Array;
  /** Field-weighted term frequency in each of those documents. */
  tf: Float32Array;
}

/**
 * A store's postings held in memory, as of one version of its search_store_stats row. The
 * database stays the record (search_postings); this copy exists because scoring BM25 by a SQL
 * aggregate over every posting of a common term costs tens of milliseconds in PGlite, while the
 * same loop over typed arrays costs well under one.
 */
export interface LexicalSnapshot {
  storeId: string;
  version: number;
  docCount: number;
  postings: Map<string, Postings>;
  /** The vocabulary, sorted, for typo correction by prefix. */
  vocabulary: string[];
  productIds: Float64Array;
  docOf: Map<number, number>;
  /** k1 * (1 - b + b * len / avgdl) per document: the length part of BM25's denominator. */
  lengthNorm: Float32Array;
}

export interface QueryTerm {
  term: string;
  /** 1, or less for a typo correction. */
  weight: number;
}

/** One query's lexical evidence over the store's documents. */
export interface LexicalScores {
  /** Sum of the query terms' IDF: BM25 divided by it is about 1 for a full match. */
  idfTotal: number;
  /** Product ids of every matching document, best BM25 first. */
  ranked: number[];
  /** BM25 and matched IDF of a product (0 when it matches no term). */
  of(productId: number): { bm25: number; matchedIdf: number };
}

interface StatsRow {
  doc_count: number;
  total_len: number;
  version: string | number;
}

async function readStats(db: Db, storeId: string): Promise<StatsRow | undefined> {
  const [row] = await queryRows<StatsRow>(
    db,
    sql`SELECT doc_count, total_len, version FROM search_store_stats WHERE store_id = ${storeId}`,
  );
  return row;
}

/**
 * Reads a store's postings. One row per term with its postings packed into a string: PGlite
 * hands over 27,000 such rows for the 618,000 postings of a 54,667-product catalogue in about a
 * second (about two with parsing), where one row per posting takes five just to read.
 */
async function loadSnapshot(db: Db, storeId: string, stats: StatsRow): Promise<LexicalSnapshot> {
  const rows = await queryRows<{ term: string; packed: string }>(
    db,
    sql`SELECT term, string_agg(product_id::text || ':' || tf::text || ':' || doc_len::text, ' '
                                ORDER BY product_id) AS packed
        FROM search_postings WHERE store_id = ${storeId} GROUP BY term`,
  );
  const docOf = new Map<number, number>();
  const lengths: number[] = [];
  const postings = new Map<string, Postings>();
  for (const { term, packed } of rows) {
    const entries = packed.split(' ');
    const docs = new Int32Array(entries.length);
    const tf = new Float32Array(entries.length);
    entries.forEach((entry, i) => {
      const [id, freq, len] = entry.split(':').map(Number) as [number, number, number];
      let doc = docOf.get(id);
      if (doc === undefined) {
        doc = lengths.length;
        docOf.set(id, doc);
        lengths.push(len);
      }
      docs[i] = doc;
      tf[i] = freq;
    });
    postings.set(term, { docs, tf });
  }
  const docCount = Math.max(stats.doc_count, 1);
  const avgdl = Math.max(stats.total_len / docCount, 1e-9);
  const productIds = new Float64Array(lengths.length);
  for (const [id, doc] of docOf) productIds[doc] = id;
  return {
    storeId,
    version: Number(stats.version),
    docCount,
    postings,
    vocabulary: [...postings.keys()].sort(),
    productIds,
    docOf,
    lengthNorm: Float32Array.from(
      lengths,
      (len) => BM25_K1 * (1 - BM25_B + (BM25_B * len) / avgdl),
    ),
  };
}

const snapshots = new Map<string, LexicalSnapshot>();
const loading = new Map<string, Promise<LexicalSnapshot>>();

/**
 * The store's current snapshot. Every change to a store's postings bumps the version of its
 * search_store_stats row (lib/search/lexical-index.ts), and every search reads that row, so a
 * search never answers from postings older than the last committed write, whichever process
 * wrote it. Concurrent searches share one load.
 */
export async function lexicalSnapshot(db: Db, storeId: string): Promise<LexicalSnapshot | null> {
  const stats = await readStats(db, storeId);
  if (!stats) return null;
  const current = snapshots.get(storeId);
  if (current && current.version === Number(stats.version)) return current;
  const key = `${storeId}@${stats.version}`;
  let pending = loading.get(key);
  if (!pending) {
    pending = loadSnapshot(db, storeId, stats)
      .then((snapshot) => {
        const newest = snapshots.get(storeId);
        if (!newest || newest.version < snapshot.version) snapshots.set(storeId, snapshot);
        return snapshot;
      })
      .finally(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

/** Inverse document frequency as BM25 (Robertson-Sparck Jones, kept positive) defines it. */
function idf(snapshot: LexicalSnapshot, term: string): number {
  const df = snapshot.postings.get(term)?.docs.length ?? 0;
  return Math.log(1 + (snapshot.docCount - df + 0.5) / (df + 0.5));
}

/** BM25 of every document holding a query term, and the IDF mass of the terms each holds. */
export function scoreLexical(snapshot: LexicalSnapshot, terms: QueryTerm[]): LexicalScores {
  const n = snapshot.productIds.length;
  const bm25 = new Float64Array(n);
  const matched = new Float64Array(n);
  const seen = new Uint8Array(n);
  const touched: number[] = [];
  let idfTotal = 0;
  for (const { term, weight } of terms) {
    const termIdf = idf(snapshot, term);
    idfTotal += termIdf;
    const list = snapshot.postings.get(term);
    if (!list) continue;
    const w = weight * termIdf;
    for (let i = 0; i < list.docs.length; i++) {
      const doc = list.docs[i]!;
      const tf = list.tf[i]!;
      if (seen[doc] === 0) {
        seen[doc] = 1;
        touched.push(doc);
      }
      bm25[doc] = bm25[doc]! + (w * tf * (BM25_K1 + 1)) / (tf + snapshot.lengthNorm[doc]!);
      matched[doc] = matched[doc]! + w;
    }
  }
  touched.sort((a, b) => bm25[b]! - bm25[a]! || a - b);
  return {
    idfTotal: Math.max(idfTotal, 1e-9),
    ranked: touched.map((doc) => snapshot.productIds[doc]!),
    of(productId) {
      const doc = snapshot.docOf.get(productId);
      return doc === undefined
        ? { bm25: 0, matchedIdf: 0 }
        : { bm25: bm25[doc]!, matchedIdf: matched[doc]! };
    },
  };
}

/** Vocabulary terms starting with the prefix (binary search over the sorted vocabulary). */
export function termsWithPrefix(snapshot: LexicalSnapshot, prefix: string): string[] {
  const words = snapshot.vocabulary;
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < words.length && words[i]!.startsWith(prefix); i++) out.push(words[i]!);
  return out;
}

export function documentFrequency(snapshot: LexicalSnapshot, term: string): number {
  return snapshot.postings.get(term)?.docs.length ?? 0;
}
