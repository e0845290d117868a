import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/server';
import { openDatabase, queryRows } from '../client';
import { engineOf, isCitus, isEmbedded } from '.';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

/** Whether migration 0005 made the catalogue a Citus distributed table: Citus's own catalogue. */
async function catalogueDistributed(t: TestServer): Promise<boolean> {
  const db = t.database.db;
  const [citus] = await queryRows<{ present: boolean }>(
    db,
    sql`SELECT to_regclass('pg_dist_partition') IS NOT NULL AS present`,
  );
  if (!citus!.present) return false;
  const [products] = await queryRows<{ distributed: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT FROM pg_dist_partition WHERE logicalrelid = 'products'::regclass)
          AS distributed`,
  );
  return products!.distributed;
}

describe('the engine adapter', () => {
  it('tells the engine the tests run on: PGlite in process, or a server, Citus by its distributed catalogue', async () => {
    const db = t.database.db;
    const engine = await engineOf(db);
    if (!process.env.TEST_DATABASE_URL) {
      expect(engine).toEqual({ name: 'pglite', inProcess: true, pglite: true, distributed: false });
      expect(isEmbedded(db)).toBe(true);
      return;
    }
    const [server] = await queryRows<{ version: string }>(db, sql`SELECT version() AS version`);
    // The wire run without a server of its own serves a PGlite over its socket (global-setup).
    const pgliteServer = server!.version.includes('wasm32');
    const distributed = await catalogueDistributed(t);
    expect(engine.name).toBe(pgliteServer ? 'pglite-socket' : distributed ? 'citus' : 'postgres');
    expect(engine).toMatchObject({ inProcess: false, pglite: pgliteServer, distributed });
    expect(await isCitus(db)).toBe(distributed);
    expect(isEmbedded(db)).toBe(false);
  });

  it.skipIf(process.env.TEST_DATABASE_URL !== undefined)(
    "tells another process's PGlite, reached over its socket, from a server",
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'engine-test-'));
      const holder = await openDatabase({ dataDir, shareOverSocket: true });
      try {
        const joined = await openDatabase({ dataDir, joinRunningServer: true });
        try {
          expect(joined.kind).toBe('postgres');
          expect(await engineOf(joined.db)).toEqual({
            name: 'pglite-socket',
            inProcess: false,
            pglite: true,
            distributed: false,
          });
          expect((await engineOf(holder.db)).name).toBe('pglite');
        } finally {
          await joined.close();
        }
      } finally {
        await holder.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
