import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows, type Db } from '../../db/client';
import { readLock } from '../../db/lock';
import { textArray } from '../../search/sql-arrays';

const PAGE = 2000;

/**
 * Copies the text embedding cache of another data directory (the eval database) into `db`, so
 * the bench measures indexing rather than re-embedding titles the eval already embedded.
 * Skipped (returns 0) when that directory is absent or held by a running process.
 */
export async function copyEmbeddingCache(db: Db, fromDir: string, modelId: string) {
  const dir = path.resolve(fromDir);
  if (!fs.existsSync(path.join(dir, 'pg')) || readLock(dir)) return 0;
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
