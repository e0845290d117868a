import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { vectorLiteral } from '../db/vector';

/**
 * product_embeddings.embedding is an untyped `vector` (models differ in width), so each model
 * gets a partial HNSW index over the expression `embedding::vector(N)`. A query uses the index
 * only when it repeats that expression and the predicate with the same literals, which is why
 * model ids are inlined (escaped) rather than bound as parameters.
 */

export type EmbeddingKind = 'text' | 'image';

function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export function vectorIndexName(kind: EmbeddingKind, modelId: string): string {
  return `pe_hnsw_${kind}_${modelId.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`.slice(0, 63);
}

/** `embedding::vector(N)`, the indexed expression. */
export function typedEmbedding(dimensions: number, alias = 'pe'): SQL {
  return sql.raw(`(${alias}.embedding::vector(${Math.trunc(dimensions)}))`);
}

/** The partial-index predicate, for WHERE clauses that must match the index. */
export function indexPredicate(kind: EmbeddingKind, modelId: string, alias = 'pe'): SQL {
  return sql.raw(`${alias}.model_id = ${literal(modelId)} AND ${alias}.kind = ${literal(kind)}`);
}

/** Integers below this are the ones C's strtof reads at once (musl's fast path for float). */
const FAST_INTEGER = 2 ** 24;

/**
 * A query vector's text for cosine comparisons only: its elements as integers, the vector
 * scaled by the power of two that brings its largest element just under 2^24. pgvector reads a
 * vector's text with strtof, which in PGlite's WebAssembly takes about 2 µs for a decimal
 * fraction and a tenth of that for such an integer (512 floats: 1.2 against 0.1 ms of every
 * search). Cosine does not see the scale; the rounding moves each element by at most 2^-25 of
 * the largest, a few float32 steps, so a cosine moves in about its eighth decimal.
 */
export function cosineQueryText(vector: readonly number[]): string {
  const largest = Math.max(...vector.map(Math.abs));
  if (!(largest > 0) || !Number.isFinite(largest)) return vectorLiteral(vector);
  const scale = 2 ** Math.floor(Math.log2((FAST_INTEGER - 1) / largest));
  return `[${vector.map((x) => Math.round(x * scale)).join(',')}]`;
}

/** A query vector typed like the indexed expression, for cosine comparisons (`<=>`) only. */
export function cosineQueryParam(vector: readonly number[], dimensions: number): SQL {
  return sql`${cosineQueryText(vector)}::vector(${sql.raw(String(Math.trunc(dimensions)))})`;
}

export async function ensureVectorIndex(
  db: Db,
  kind: EmbeddingKind,
  modelId: string,
  dimensions: number,
): Promise<void> {
  const dims = Math.trunc(dimensions);
  await db.execute(
    sql.raw(
      `CREATE INDEX IF NOT EXISTS ${vectorIndexName(kind, modelId)} ON product_embeddings ` +
        `USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) ` +
        `WHERE model_id = ${literal(modelId)} AND kind = ${literal(kind)}`,
    ),
  );
}

/** Drops the HNSW indexes of every other model of this kind (after a model change). */
export async function dropOtherVectorIndexes(
  db: Db,
  kind: EmbeddingKind,
  modelId: string,
): Promise<void> {
  const keep = vectorIndexName(kind, modelId);
  const rows = await queryRows<{ indexname: string }>(
    db,
    sql`SELECT indexname FROM pg_indexes WHERE tablename = 'product_embeddings'
        AND indexname LIKE ${`pe_hnsw_${kind}_%`}`,
  );
  for (const { indexname } of rows) {
    if (indexname !== keep) await db.execute(sql.raw(`DROP INDEX IF EXISTS "${indexname}"`));
  }
}
