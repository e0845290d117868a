import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows, type Db } from '../../db/client';
import { readLock } from '../../db/lock';
import { textArray } from '../../sql/arrays';

const PAGE = 2000;

/**
 * Copies the text embedding cache of another data directory (the eval database) into `db`, so
 * the bench measures indexing rather than re-embedding titles the eval already embedded.
 * Skipped (returns 0) when that directory holds no database. One that a running process holds
 * (an eval, another bench) is an error: skipping it would send every title through the model,
 * about 25 minutes, where waiting for that process would have cost none.
 */
export async function copyEmbeddingCache(db: Db, fromDir: string, modelId: string) {
  const dir = path.resolve(fromDir);
  if (!fs.existsSync(path.join(dir, 'pg'))) return 0;
  const holder = readLock(dir);
  if (holder) {
    throw new Error(
      `the embedding cache ${dir} is open in process ${holder.pid}: run the bench when it ends, or pass another --cache-from`,
    );
  }
  const source = await openDatabase({ dataDir: dir });
  let copied = 0;
  try {
    let after = '';
    for (;;) {
      const rows = await queryRows<{ input_hash: string; embedding: string }>(
        source.db,
        sql`SELECT input_hash, embedding::text AS embedding FROM embedding_cache
            WHERE model_id = ${modelId} AND input_hash > ${after}
            ORDER BY input_hash LIMIT ${PAGE}`,
      );
      if (rows.length === 0) break;
      await db.execute(sql`
        INSERT INTO embedding_cache (model_id, input_hash, embedding)
        SELECT ${modelId}, h, v::vector
        FROM unnest(${textArray(rows.map((r) => r.input_hash))},
                    ${textArray(rows.map((r) => r.embedding))}) AS u(h, v)
        ON CONFLICT DO NOTHING`);
      copied += rows.length;
      after = rows.at(-1)!.input_hash;
    }
  } finally {
    await source.close();
  }
  return copied;
}
