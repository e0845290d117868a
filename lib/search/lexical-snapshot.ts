import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';

/** BM25 parameters: the usual ones; titles are short, so length normalization stays moderate. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/** A full reload once this share of the snapshot's documents are superseded versions. */
const MAX_DEAD_SHARE = 0.25;

interface TermPostings {
  /** Document numbers (indexes into the snapshot's per-document arrays), dead ones included. */
  docs: number[];
  /** Field-weighted term frequency in each of those documents. */
  tf: number[];
  /** Postings of live documents: the term's document frequency. */
  live: number;
}

/**
 * A store's postings held in memory, as of one version of its search_store_stats row. The
 * database stays the record (search_postings); this copy exists because scoring BM25 by a SQL
 * aggregate over every posting of a common term costs tens of milliseconds in PGlite, while the
 * same loop in memory costs well under one.
 *
 * A product re-indexed since the snapshot was loaded gets a new document number and its old one
 * is marked dead, so a refresh reads only the postings written since (search_postings.version).
 */
export interface LexicalSnapshot {
  version: number;
  epoch: number;
  docCount: number;
  postings: Map<string, TermPostings>;
  /** The vocabulary, sorted, for typo correction by prefix (rebuilt when terms are added). */
  vocabulary: string[];
  productIds: number[];
  /** The terms of each document, to retire its postings when it is superseded. */
  docTerms: TermPostings[][];
  dead: boolean[];
  deadCount: number;
  docOf: Map<number, number>;
  /** k1 * (1 - b + b * len / avgdl) per document: the length part of BM25's denominator. */
  lengthNorm: number[];
}

export interface QueryTerm {
  term: string;
  /** 1, or less for a typo correction. */
  weight: number;
}

/** One query's lexical evidence over the store's documents. */
export interface LexicalScores {
  /** Product ids of every matching document, best BM25 first. */
  ranked: number[];
  /**
   * A product's BM25 divided by the query terms' summed IDF (about 1 for a product holding every
   * term once at average length), and the share of that IDF mass it holds (0..1); both 0 when
   * it matches no term.
   */
  of(productId: number): { bm25: number; coverage: number };
}

interface StatsRow {
  doc_count: number;
  total_len: number;
  version: string | number;
  epoch: string | number;
}

async function readStats(db: Db, storeId: string): Promise<StatsRow | undefined> {
  const [row] = await queryRows<StatsRow>(
    db,
    sql`SELECT doc_count, total_len, version, epoch FROM search_store_stats
        WHERE store_id = ${storeId}`,
  );
  return row;
}

/**
 * Reads postings of a store, all of them or those written after a version. One row per term
 * with its postings packed into a string: PGlite hands over 27,000 such rows for the 618,000
 * postings of a 54,667-product catalogue in about a second (about two with parsing), where one
 * row per posting takes five just to read.
 */
async function readPostings(db: Db, storeId: string, after?: number) {
  const rows = await queryRows<{ term: string; packed: string }>(
    db,
    sql`SELECT term, string_agg(product_id::text || ':' || tf::text || ':' || doc_len::text, ' '
                                ORDER BY product_id) AS packed
        FROM search_postings
        WHERE store_id = ${storeId} ${after === undefined ? sql`` : sql`AND version > ${after}`}
        GROUP BY term`,
  );
  const byProduct = new Map<number, { len: number; terms: Array<[string, number]> }>();
  for (const { term, packed } of rows) {
    for (const entry of packed.split(' ')) {
      const [id, tf, len] = entry.split(':').map(Number) as [number, number, number];
      let product = byProduct.get(id);
      if (!product) {
        product = { len, terms: [] };
        byProduct.set(id, product);
      }
      product.terms.push([term, tf]);
    }
  }
  return byProduct;
}

function emptySnapshot(): LexicalSnapshot {
  return {
    version: 0,
    epoch: 0,
    docCount: 1,
    postings: new Map(),
    vocabulary: [],
    productIds: [],
    docTerms: [],
    dead: [],
    deadCount: 0,
    docOf: new Map(),
    lengthNorm: [],
  };
}

/** Adds products' postings, retiring the documents of earlier versions of the same products. */
function apply(
  snapshot: LexicalSnapshot,
  stats: StatsRow,
  products: Awaited<ReturnType<typeof readPostings>>,
): void {
  const docCount = Math.max(stats.doc_count, 1);
  const avgdl = Math.max(stats.total_len / docCount, 1e-9);
  let newTerms = false;
  for (const [productId, { len, terms }] of products) {
    const previous = snapshot.docOf.get(productId);
    if (previous !== undefined && !snapshot.dead[previous]) {
      snapshot.dead[previous] = true;
      snapshot.deadCount++;
      for (const list of snapshot.docTerms[previous]!) list.live--;
      snapshot.docTerms[previous] = [];
    }
    const doc = snapshot.productIds.length;
    snapshot.productIds.push(productId);
    snapshot.dead.push(false);
    snapshot.lengthNorm.push(BM25_K1 * (1 - BM25_B + (BM25_B * len) / avgdl));
    snapshot.docOf.set(productId, doc);
    const lists: TermPostings[] = [];
    for (const [term, tf] of terms) {
      let list = snapshot.postings.get(term);
      if (!list) {
        list = { docs: [], tf: [], live: 0 };
        snapshot.postings.set(term, list);
        newTerms = true;
      }
      list.docs.push(doc);
      list.tf.push(tf);
      list.live++;
      lists.push(list);
    }
    snapshot.docTerms.push(lists);
  }
  if (newTerms) snapshot.vocabulary = [...snapshot.postings.keys()].sort();
  snapshot.docCount = docCount;
  snapshot.version = Number(stats.version);
  snapshot.epoch = Number(stats.epoch);
}

/**
 * Brings a snapshot to the stats row's version: the postings written since, or all of them when
 * there is no snapshot yet, products were deleted since (a new epoch), or too many of its
 * documents are superseded.
 */
async function refresh(
  db: Db,
  storeId: string,
  stats: StatsRow,
  current: LexicalSnapshot | undefined,
): Promise<LexicalSnapshot> {
  const incremental =
    current !== undefined &&
    current.epoch === Number(stats.epoch) &&
    current.deadCount <= MAX_DEAD_SHARE * current.productIds.length;
  const snapshot = incremental ? current : emptySnapshot();
  apply(
    snapshot,
    stats,
    await readPostings(db, storeId, incremental ? current.version : undefined),
  );
  return snapshot;
}

const snapshots = new Map<string, LexicalSnapshot>();
const refreshing = new Map<string, Promise<LexicalSnapshot>>();

/**
 * The store's current snapshot. Every write to a store's postings bumps the version of its
 * search_store_stats row (lib/search/lexical-index.ts), and every search reads that row, so a
 * search never answers from postings older than the last committed write, whichever process
 * wrote it. One refresh per store runs at a time; searches arriving meanwhile share it and then
 * check the version again.
 */
export async function lexicalSnapshot(db: Db, storeId: string): Promise<LexicalSnapshot | null> {
  for (;;) {
    const stats = await readStats(db, storeId);
    if (!stats) return null;
    const current = snapshots.get(storeId);
    if (current && current.version >= Number(stats.version)) return current;
    const running = refreshing.get(storeId);
    if (running) {
      // A failed refresh is retried by whoever comes next, this search included.
      await running.catch(() => undefined);
      continue;
    }
    const pending = refresh(db, storeId, stats, current)
      .then((snapshot) => {
        snapshots.set(storeId, snapshot);
        return snapshot;
      })
      .finally(() => refreshing.delete(storeId));
    refreshing.set(storeId, pending);
    return pending;
  }
}

/** Inverse document frequency as BM25 (Robertson-Sparck Jones, kept positive) defines it. */
function idf(snapshot: LexicalSnapshot, df: number): number {
  return Math.log(1 + Math.max(snapshot.docCount - df + 0.5, 0) / (df + 0.5));
}

/** BM25 of every document holding a query term, and the IDF mass of the terms each holds. */
export function scoreLexical(snapshot: LexicalSnapshot, terms: QueryTerm[]): LexicalScores {
  const scores = new Map<number, { bm25: number; matchedIdf: number }>();
  let idfTotal = 0;
  for (const { term, weight } of terms) {
    const list = snapshot.postings.get(term);
    const termIdf = idf(snapshot, list?.live ?? 0);
    idfTotal += termIdf;
    if (!list) continue;
    const w = weight * termIdf;
    for (let i = 0; i < list.docs.length; i++) {
      const doc = list.docs[i]!;
      if (snapshot.dead[doc]) continue;
      const tf = list.tf[i]!;
      const productId = snapshot.productIds[doc]!;
      const add = (w * tf * (BM25_K1 + 1)) / (tf + snapshot.lengthNorm[doc]!);
      const score = scores.get(productId);
      if (score) {
        score.bm25 += add;
        score.matchedIdf += w;
      } else {
        scores.set(productId, { bm25: add, matchedIdf: w });
      }
    }
  }
  const ranked = [...scores].sort((a, b) => b[1].bm25 - a[1].bm25).map(([productId]) => productId);
  const total = Math.max(idfTotal, 1e-9);
  return {
    ranked,
    of(productId) {
      const score = scores.get(productId);
      return score
        ? { bm25: score.bm25 / total, coverage: Math.min(1, score.matchedIdf / total) }
        : { bm25: 0, coverage: 0 };
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

/** Products holding the term (0 for a term the store does not use, or no longer uses). */
export function documentFrequency(snapshot: LexicalSnapshot, term: string): number {
  return snapshot.postings.get(term)?.live ?? 0;
}
