import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { directionText } from '../db/vector';
import { engineOf } from '../db/engine';
import { env } from '../config/env';

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

/**
 * The text of query vectors met recently, by the vector itself: a repeated query's vector is the
 * same array (embedTextsCached keeps it), which a server's statement carries at each use (twice
 * per search), and writing 512 numbers as text took about 0.1 ms each time.
 */
const queryTexts = new WeakMap<readonly number[], string>();

/** A query vector typed like the indexed expression, for cosine comparisons (`<=>`) only. */
export function cosineQueryParam(vector: readonly number[], dimensions: number): SQL {
  let text = queryTexts.get(vector);
  if (text === undefined) queryTexts.set(vector, (text = directionText(vector)));
  return sql`${text}::vector(${sql.raw(String(Math.trunc(dimensions)))})`;
}

/** Whether the HNSW index of this model and kind exists (ensureVectorIndex made it). */
export async function vectorIndexExists(
  db: Db,
  kind: EmbeddingKind,
  modelId: string,
): Promise<boolean> {
  const [row] = await queryRows<{ found: boolean }>(
    db,
    sql`SELECT to_regclass(${vectorIndexName(kind, modelId)}) IS NOT NULL AS found`,
  );
  return Boolean(row?.found);
}

/**
 * PGlite's cap on VECTOR_INDEX_BUILD_MEMORY_MB. Its memory is the API process's WebAssembly heap:
 * at most 2 GB (32,768 pages), its 256 MB of buffers included, and never given back once grown.
 * At 512 MB a build of 55,679 vectors took 146 s against 324 s at PostgreSQL's 64 MB, and left the
 * process at 1.1 GB against 0.9 (docs/bench-log.md, Scale).
 */
const PGLITE_INDEX_BUILD_MEMORY_MB = 512;

/**
 * Builds the HNSW index of this model and kind unless it exists, with VECTOR_INDEX_BUILD_MEMORY_MB
 * (at most PGLITE_INDEX_BUILD_MEMORY_MB on PGlite): pgvector builds the graph in memory and, once
 * it outgrows maintenance_work_mem (64 MB by default, about 28,000 vectors of 512 dimensions),
 * goes on on disk, much slower (a build of 54,667 vectors took 56.5 s at 64 MB, 23.8 s at 1 GB on
 * PostgreSQL). On Citus the setting goes with the statement to the workers, which build their
 * shards' indexes.
 */
export async function ensureVectorIndex(
  db: Db,
  kind: EmbeddingKind,
  modelId: string,
  dimensions: number,
): Promise<void> {
  if (await vectorIndexExists(db, kind, modelId)) return;
  const dims = Math.trunc(dimensions);
  const create = sql.raw(
    `CREATE INDEX IF NOT EXISTS ${vectorIndexName(kind, modelId)} ON product_embeddings ` +
      `USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) ` +
      `WHERE model_id = ${literal(modelId)} AND kind = ${literal(kind)}`,
  );
  const engine = await engineOf(db);
  const memoryMb = engine.pglite
    ? Math.min(env().VECTOR_INDEX_BUILD_MEMORY_MB, PGLITE_INDEX_BUILD_MEMORY_MB)
    : env().VECTOR_INDEX_BUILD_MEMORY_MB;
  await db.transaction(async (tx) => {
    if (engine.distributed) await tx.execute(sql`SET LOCAL citus.propagate_set_commands = 'local'`);
    await tx.execute(sql.raw(`SET LOCAL maintenance_work_mem = '${memoryMb}MB'`));
    await tx.execute(create);
  });
}

/** The HNSW indexes of every other model of this kind: left by a model change until a reindex. */
export async function otherVectorIndexes(
  db: Db,
  kind: EmbeddingKind,
  modelId: string,
): Promise<string[]> {
  const keep = vectorIndexName(kind, modelId);
  const rows = await queryRows<{ indexname: string }>(
    db,
    sql`SELECT indexname FROM pg_indexes WHERE tablename = 'product_embeddings'
        AND indexname LIKE ${`pe_hnsw_${kind}_%`}`,
  );
  return rows.map((r) => r.indexname).filter((name) => name !== keep);
}

/** Drops the HNSW indexes of every other model of this kind (after a model change). */
export async function dropOtherVectorIndexes(
  db: Db,
  kind: EmbeddingKind,
  modelId: string,
): Promise<void> {
  for (const name of await otherVectorIndexes(db, kind, modelId)) {
    await db.execute(sql.raw(`DROP INDEX IF EXISTS "${name}"`));
  }
}
