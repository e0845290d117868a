// @no-test-database
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '../../db/client';
import { copyEmbeddingCache } from './copy-cache';

const MODEL = 'test-model';
let sourceDir: string;
let target: Database;

beforeAll(async () => {
  sourceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cache-'));
  const source = await openDatabase({ dataDir: sourceDir });
  await source.db.execute(sql`
    INSERT INTO embedding_cache (model_id, input_hash, embedding)
    VALUES (${MODEL}, 'a', '[1,0,0]'), (${MODEL}, 'b', '[0,1,0]'), ('other', 'c', '[0,0,1]')`);
  await source.close();
  target = await openDatabase({ url: 'memory://' });
}, 120_000);

afterAll(async () => {
  await target?.close();
  fs.rmSync(sourceDir, { recursive: true, force: true });
});

describe('bench --cache-from', () => {
  it("copies the model's cached vectors from another data directory", async () => {
    expect(await copyEmbeddingCache(target.db, sourceDir, MODEL)).toBe(2);
    const rows = await queryRows<{ input_hash: string; embedding: string }>(
      target.db,
      sql`SELECT input_hash, embedding::text AS embedding FROM embedding_cache ORDER BY input_hash`,
    );
    expect(rows).toEqual([
      { input_hash: 'a', embedding: '[1,0,0]' },
      { input_hash: 'b', embedding: '[0,1,0]' },
    ]);
  });

  it('copies nothing from a directory that holds no database', async () => {
    expect(await copyEmbeddingCache(target.db, path.join(sourceDir, 'absent'), MODEL)).toBe(0);
  });

  it('refuses a directory a running process holds, rather than embed everything', async () => {
    const holder = await openDatabase({ dataDir: sourceDir });
    try {
      await expect(copyEmbeddingCache(target.db, sourceDir, MODEL)).rejects.toThrow(
        `is open in process ${process.pid}`,
      );
    } finally {
      await holder.close();
    }
  });
});
