import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { env } from '../../config/env';
import { configuredCache } from './configured-cache';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/client';
import { indexPredicate } from '../../embeddings/vector-index';
import type { PickedCandidates } from './cached-lexical-candidates';
import { VectorRows } from './dot-products';
import type { OneStore, RetrievalRequest, VectorQuery } from './request';
import { atLeastCut } from './top-cut';
import { EXACT_VECTOR_SCAN_MAX } from './vector-sql';

/**
 * One store's text vectors of one model, each scaled to unit length: what a one-store search
 * compares its query vector with, instead of an exact scan of the store's rows. That scan read 2 KB
 * a product from the table (at 5,467 products, 28.7 ms of a 37.7 ms statement, and 10 to 12 ms
 * with every page in the buffers, docs/bench-log.md, Scale), where the cosines are about a
 * millisecond of SIMD arithmetic (dot-products.ts). A store searched a few times pays more to load
 * than it saves, hence STORE_VECTORS_LOAD_AFTER.
 */
interface StoreVectors {
  productIds: Float64Array;
  /** A zero vector's row is NaN, so that its cosine is NaN, as in SQL. */
  rows: VectorRows;
}

/**
 * How long an entry is trusted although the store's version still matches: the version changes
 * after every write of the store's vectors (touchStoreVectors), so this only bounds a change
 * whose version was lost (the process ended between the two).
 */
const ENTRY_TTL_MS = 10 * 60_000;

/** Rows per load statement: a store's vectors come in parts, to bound the text each one carries. */
const LOAD_ROWS = 4096;

const cache = configuredCache<StoreVectors>({
  megabytes: () => env().STORE_VECTORS_CACHE_MB,
  bytesOf: (e) => 256 + e.rows.bytes + 8 * e.productIds.length,
  ttlMs: ENTRY_TTL_MS,
});
const storeCache = () => cache.entries();

/** The loads under way, by key. */
const loading = new Map<string, Promise<StoreVectors>>();

/** Searches of each store scanned in SQL since its vectors last left the cache, by key. */
const scannedInSql = new LRUCache<string, number>({ max: 100_000, ttl: ENTRY_TTL_MS });

/**
 * Each search's answer, taken once: the plan's choice and the plan's run both ask, and the second
 * asking must not count the search again.
 */
const answered = new WeakMap<RetrievalRequest, boolean>();

/** Empties the cache and its counts (tests). */
export function clearStoreVectorsCache(): void {
  cache.clear();
  scannedInSql.clear();
}

function keyOf(scope: OneStore, q: VectorQuery): string {
  return `${scope.storeId}\u0000${q.modelId}\u0000${scope.vectorsVersion}`;
}

/**
 * Whether the store's vectors are (or are now to be) in the cache: held or loading, or searched in
 * SQL STORE_VECTORS_LOAD_AFTER times already; otherwise this search is counted and scans in SQL.
 */
function admitted(held: LRUCache<string, StoreVectors>, key: string): boolean {
  if (held.has(key) || loading.has(key)) return true;
  const scanned = scannedInSql.get(key) ?? 0;
  if (scanned >= env().STORE_VECTORS_LOAD_AFTER) {
    scannedInSql.delete(key);
    return true;
  }
  scannedInSql.set(key, scanned + 1);
  return false;
}

/**
 * Whether a one-store search takes its text neighbours from the cache: it is on, the search has
 * a text vector and no variant filter (which the neighbours' SQL applies), the store is one SQL
 * would scan exactly, and not a small one (STORE_VECTORS_MIN_PRODUCTS), and the store's vectors are
 * held or searched often enough to load (admitted). A larger store is searched through the HNSW
 * index.
 */
export function storeVectorsCacheable(req: RetrievalRequest, filtered: boolean): boolean {
  const known = answered.get(req);
  if (known !== undefined) return known;
  const held = storeCache();
  const answer =
    held !== null &&
    req.text !== undefined &&
    !filtered &&
    'storeId' in req.scope &&
    req.scope.storeDocs >= env().STORE_VECTORS_MIN_PRODUCTS &&
    req.scope.storeDocs <= EXACT_VECTOR_SCAN_MAX &&
    admitted(held, keyOf(req.scope, req.text));
  answered.set(req, answer);
  return answer;
}

/**
 * Decodes pgvector's binary form (vector_send: dimensions and a reserved word as 16-bit integers,
 * then each element a big-endian float4), the rows one after another, into unit-length rows.
 */
function decode(productIds: Float64Array, packed: Buffer, dimensions: number): StoreVectors {
  const n = productIds.length;
  const stride = 4 + 4 * dimensions;
  if (packed.length !== n * stride) {
    throw new Error(`a store's ${n} vectors took ${packed.length} bytes, not ${dimensions} each`);
  }
  const rows = new VectorRows(n, dimensions);
  const view = new DataView(packed.buffer, packed.byteOffset, packed.length);
  for (let i = 0; i < n; i++) {
    const at = i * stride;
    if (view.getUint16(at) !== dimensions) {
      throw new Error(`product ${productIds[i]}'s vector has ${view.getUint16(at)} dimensions`);
    }
    const row = rows.row(i);
    let norm = 0;
    for (let j = 0; j < dimensions; j++) {
      const x = view.getFloat32(at + 4 + 4 * j);
      row[j] = x;
      norm += x * x;
    }
    const scale = 1 / Math.sqrt(norm);
    for (let j = 0; j < dimensions; j++) row[j]! *= scale;
  }
  return { productIds, rows };
}

/**
 * The store's vectors of the query's model, read in parts of `loadRows` products by product id, a
 * row a product. A part's ids are picked in the primary key's order and its vectors read by those
 * ids, so the 2 KB rows are never sorted. Aggregated into one text a part (string_agg, sorted by
 * id), 1,093 vectors took 63 to 75 ms of the server, warm; as rows, 11 ms (psql, 1,093,340 products,
 * docs/bench-log.md, Scale).
 */
async function load(
  db: Db,
  scope: OneStore,
  q: VectorQuery,
  loadRows: number,
): Promise<StoreVectors> {
  const ids: number[] = [];
  const parts: Buffer[] = [];
  for (let after = -1; ;) {
    const rows = await queryRows<{ product_id: number | string; packed: string }>(
      db,
      sql`SELECT pe.product_id, encode(vector_send(pe.embedding), 'base64') AS packed
          FROM (SELECT pe.product_id FROM product_embeddings pe
                WHERE pe.store_id = ${scope.storeId} AND ${indexPredicate('text', q.modelId)}
                  AND pe.product_id > ${after}
                ORDER BY pe.product_id LIMIT ${loadRows}) page
          JOIN product_embeddings pe
            ON pe.store_id = ${scope.storeId} AND pe.product_id = page.product_id
           AND ${indexPredicate('text', q.modelId)}`,
    );
    for (const row of rows) {
      const id = Number(row.product_id);
      ids.push(id);
      parts.push(Buffer.from(row.packed, 'base64'));
      after = Math.max(after, id);
    }
    if (rows.length < loadRows) break;
  }
  return decode(Float64Array.from(ids), Buffer.concat(parts), q.dimensions);
}

/**
 * The store's `req.vectorCandidates` products nearest the query's text vector by cosine, nearest
 * first (ties by product id): the neighbours vector-sql.ts's exact scan finds. Both sum floats,
 * in another order, so two products within a float's rounding of each other at the cut may
 * change places; the candidates' cosines the search scores with still come from the statement.
 */
export async function storeNeighbours(
  db: Db,
  req: RetrievalRequest,
  { loadRows = LOAD_ROWS }: { loadRows?: number } = {},
): Promise<PickedCandidates> {
  const held = storeCache();
  const q = req.text;
  if (!held || !q || !('storeId' in req.scope)) {
    throw new Error('store neighbours were asked where the cache cannot serve them');
  }
  const scope = req.scope;
  const key = keyOf(scope, q);
  let entry = held.get(key);
  if (!entry) {
    // Searches of a store arriving together wait for one load.
    let loaded = loading.get(key);
    if (!loaded) {
      loaded = load(db, scope, q, loadRows)
        .then((vectors) => {
          held.set(key, vectors);
          return vectors;
        })
        .finally(() => loading.delete(key));
      loading.set(key, loaded);
    }
    entry = await loaded;
  }
  const { productIds, rows } = entry;
  const queryNorm = Math.sqrt(q.vector.reduce((sum, x) => sum + x * x, 0));
  const dots = rows.dotsWith(q.vector.map((x) => x / queryNorm));
  const cosines = new Float64Array(productIds.length);
  // A zero vector's NaN goes last, where SQL's order by distance puts it.
  for (let i = 0; i < cosines.length; i++) {
    cosines[i] = Number.isNaN(dots[i]) ? -Infinity : dots[i]!;
  }
  const top = atLeastCut(cosines, req.vectorCandidates).sort(
    (a, b) => cosines[b]! - cosines[a]! || productIds[a]! - productIds[b]!,
  );
  top.length = Math.min(top.length, req.vectorCandidates);
  return {
    storeIds: top.map(() => scope.storeId),
    productIds: top.map((i) => productIds[i]!),
  };
}
