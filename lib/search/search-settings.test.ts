import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database, type Db } from '../db/client';
import { withSearchSettings } from './search-settings';

let database: Database | undefined;
afterEach(() => database?.close());

const settings = async (db: Db) =>
  (
    await queryRows<{ ef: string | null; scan: string | null }>(
      db,
      sql`SELECT current_setting('hnsw.ef_search', true) AS ef,
                 current_setting('hnsw.iterative_scan', true) AS scan`,
    )
  )[0];

describe('withSearchSettings', () => {
  it('runs the search as it is when the session starts with the settings', async () => {
    database = await openDatabase({ url: 'memory://' });
    const { db } = database;
    expect(await settings(db)).toEqual({ ef: '40', scan: 'relaxed_order' });
    const inside = await withSearchSettings(db, async (session) => ({
      session,
      settings: await settings(session),
    }));
    expect(inside.session).toBe(db);
    expect(inside.settings).toEqual({ ef: '40', scan: 'relaxed_order' });
  });

  it('sets them for the search alone when the session lacks them', async () => {
    database = await openDatabase({ url: 'memory://' });
    const { db } = database;
    await db.execute(sql`SET hnsw.ef_search = 100`);
    await db.execute(sql`SET hnsw.iterative_scan = off`);
    expect(await withSearchSettings(db, settings)).toEqual({ ef: '40', scan: 'relaxed_order' });
    expect(await settings(db)).toEqual({ ef: '100', scan: 'off' });
  });
});
