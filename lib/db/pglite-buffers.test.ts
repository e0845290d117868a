// @no-test-database
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { env } from '../config/env';
import { openDatabase, queryRows } from './client';
import { MIN_BUFFERS_MB, pgliteBuffersMb } from './pglite-buffers';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-buffers-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A sparse file: its size counts as data without taking the disk or the time to write it. */
function sparseFile(file: string, mb: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.closeSync(fs.openSync(file, 'w'));
  fs.truncateSync(file, mb * 1048576);
}

describe('the embedded database page cache', () => {
  it('follows the data on disk, between the default and the bound', () => {
    const pg = tempDir();
    expect(pgliteBuffersMb(pg, 384)).toBe(MIN_BUFFERS_MB);
    sparseFile(path.join(pg, 'base', '5', '16384'), 150);
    sparseFile(path.join(pg, 'base', '5', '16385'), 50);
    expect(pgliteBuffersMb(pg, 384)).toBe(200);
    sparseFile(path.join(pg, 'base', '1', '16390'), 500);
    expect(pgliteBuffersMb(pg, 384)).toBe(384);
    expect(pgliteBuffersMb(pg, 64)).toBe(MIN_BUFFERS_MB);
  });

  it('is what the database runs with when it opens', async () => {
    const dir = tempDir();
    const shared = async () => {
      const database = await openDatabase({ dataDir: dir });
      try {
        const [row] = await queryRows<{ shared_buffers: string }>(
          database.db,
          sql`SHOW shared_buffers`,
        );
        return row!.shared_buffers;
      } finally {
        await database.close();
      }
    };
    expect(await shared()).toBe('128MB');
    // Files PostgreSQL does not know under base/ are left alone; here they stand for a catalogue.
    sparseFile(path.join(dir, 'pg', 'base', 'bench-padding'), 200);
    const expected = pgliteBuffersMb(path.join(dir, 'pg'), env().PGLITE_BUFFERS_MB);
    expect(expected).toBeGreaterThan(200);
    expect(await shared()).toBe(`${expected}MB`);
  });
});
