import { sql } from 'drizzle-orm';
import { normalizeProduct } from '../../catalog/normalize';
import type { Db } from '../../db/client';
import { directionText, storedDirection } from '../../db/vector';
import type { EmbeddingProvider } from '../../embeddings/provider';
import { embedTextsCached, inputHash } from '../../search/query/cached-embeddings';
import { embeddingInput } from '../../search/index/text-embeddings';
import { textArray } from '../../sql/arrays';
import { progressLine } from '../progress';
import { noisyVector, type ScaledCatalogue } from './scale';

/** Originals per round: their vectors, and their copies' rows, stay in memory for one round. */
const ORIGINALS_PER_ROUND = 500;
/** Cache rows per INSERT. */
const ROWS_PER_STATEMENT = 2000;

/** The text the indexer will embed for this record (the sync normalizes it the same way). */
function inputOf(record: unknown): string {
  const p = normalizeProduct(record);
  return embeddingInput({
    id: 0,
    storeId: '',
    title: p.title,
    productType: p.productType,
    vendor: p.vendor,
    tags: p.tags,
    description: p.description,
  });
}

async function insertCacheRows(db: Db, modelId: string, rows: Array<[string, number[]]>) {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const part = rows.slice(start, start + ROWS_PER_STATEMENT);
    await db.execute(sql`
      INSERT INTO embedding_cache (model_id, input_hash, embedding)
      SELECT ${modelId}, h, ${storedDirection(sql.raw('v'))}
      FROM unnest(${textArray(part.map(([hash]) => hash))},
                  ${textArray(part.map(([, vector]) => directionText(vector)))}) AS u(h, v)
      ON CONFLICT DO NOTHING`);
  }
}

/**
 * Puts each copy's vector (scale.ts: its original's, moved by seeded noise) in embedding_cache
 * under the copy's own input, so that the syncs find every copy cached and measure ingest at the
 * speed cached embeddings allow. The originals' vectors come through embedTextsCached: from the
 * cache copied from the eval's, else from the model (and then cached for the syncs too).
 */
export async function seedScaledEmbeddings(
  db: Db,
  provider: EmbeddingProvider,
  catalogue: ScaledCatalogue,
) {
  const started = performance.now();
  const originals = catalogue.size / catalogue.scale;
  const report = progressLine('copies\u2019 vectors into the embedding cache, originals done');
  let embeddedByModel = 0;
  let seeded = 0;
  for (let start = 0; start < originals; start += ORIGINALS_PER_ROUND) {
    const end = Math.min(start + ORIGINALS_PER_ROUND, originals);
    const records = catalogue.slice(start, end);
    const { vectors, computed } = await embedTextsCached(db, provider, records.map(inputOf));
    embeddedByModel += computed;
    const rows: Array<[string, number[]]> = [];
    for (let copy = 1; copy < catalogue.scale; copy++) {
      const copies = catalogue.slice(copy * originals + start, copy * originals + end);
      copies.forEach((record, i) => {
        const vector = noisyVector(vectors[i]!, String(records[i]!.id), copy);
        rows.push([inputHash(inputOf(record)), vector]);
      });
    }
    await insertCacheRows(db, provider.modelId, rows);
    seeded += rows.length;
    report(end, originals);
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  console.log(
    `scale ${catalogue.scale}: ${seeded} copies' vectors cached in ${seconds} s (${embeddedByModel} originals embedded by the model)`,
  );
  return { seconds, copies_cached: seeded, originals_embedded_by_model: embeddedByModel };
}
