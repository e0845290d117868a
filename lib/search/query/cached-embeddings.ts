import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/client';
import type { EmbeddingProvider } from '../../embeddings/provider';
import { textArray } from '../../sql/arrays';
import { directionText, storedDirection } from '../../db/vector';

export function inputHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** Recent query vectors per model; a repeated query skips the model and the database. */
const MEMORY_ENTRIES = 2000;
const memory = new Map<string, number[]>();

function remember(key: string, vector: number[]): void {
  if (memory.size >= MEMORY_ENTRIES) memory.delete(memory.keys().next().value!);
  memory.set(key, vector);
}

/** Of these input hashes, the ones embedding_cache holds a vector of for the model. */
export async function cachedInputs(
  db: Db,
  modelId: string,
  hashes: readonly string[],
): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await queryRows<{ input_hash: string }>(
    db,
    sql`SELECT input_hash FROM embedding_cache
        WHERE model_id = ${modelId} AND input_hash = ANY(${textArray([...hashes])})`,
  );
  return new Set(rows.map((r) => r.input_hash));
}

/**
 * Embeds the texts (distinct inputs, each with its inputHash) through the model and adds their
 * vectors to embedding_cache; returns the vectors in the order given.
 */
export async function embedIntoCache(
  db: Db,
  provider: EmbeddingProvider,
  inputs: ReadonlyArray<readonly [hash: string, text: string]>,
): Promise<number[][]> {
  if (inputs.length === 0) return [];
  const vectors = await provider.embedTexts(inputs.map(([, text]) => text));
  await db.execute(sql`
    INSERT INTO embedding_cache (model_id, input_hash, embedding)
    SELECT ${provider.modelId}, h, ${storedDirection(sql.raw('v'))}
    FROM unnest(${textArray(inputs.map(([hash]) => hash))},
                ${textArray(vectors.map(directionText))}) AS u(h, v)
    ON CONFLICT DO NOTHING`);
  return vectors;
}

/**
 * Embeds texts through embedding_cache: a query asked before (by anyone, in any run) costs a
 * lookup, not a model call. Vectors come in the order given; `computed` counts model inputs.
 */
export async function embedTextsCached(
  db: Db,
  provider: EmbeddingProvider,
  texts: string[],
): Promise<{ vectors: number[][]; computed: number }> {
  const out = new Array<number[] | undefined>(texts.length);
  const hashes = texts.map(inputHash);
  const pending: number[] = [];
  let computed = 0;
  hashes.forEach((h, i) => {
    const hit = memory.get(`${provider.modelId}:${h}`);
    if (hit) out[i] = hit;
    else pending.push(i);
  });
  if (pending.length > 0) {
    const rows = await queryRows<{ input_hash: string; embedding: string }>(
      db,
      sql`SELECT input_hash, embedding::text AS embedding FROM embedding_cache
          WHERE model_id = ${provider.modelId}
            AND input_hash = ANY(${textArray(pending.map((i) => hashes[i]!))})`,
    );
    const stored = new Map(rows.map((r) => [r.input_hash, JSON.parse(r.embedding) as number[]]));
    const missing = pending.filter((i) => !stored.has(hashes[i]!));
    if (missing.length > 0) {
      const unique = [...new Map(missing.map((i) => [hashes[i]!, texts[i]!]))];
      const vectors = await embedIntoCache(db, provider, unique);
      computed = unique.length;
      unique.forEach(([hash], j) => stored.set(hash, vectors[j]!));
    }
    for (const i of pending) {
      const vector = stored.get(hashes[i]!)!;
      out[i] = vector;
      remember(`${provider.modelId}:${hashes[i]}`, vector);
    }
  }
  return { vectors: out as number[][], computed };
}
