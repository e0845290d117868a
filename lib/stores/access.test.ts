import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { createFixtureStore } from '../testing/fixtures/catalogue';
import { startTestServer, type TestServer } from '../testing/server';
import { closedStoreIds, closedStoresQuery } from './access';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

describe('closedStoreIds', () => {
  it('names the closed stores that do not list the developer, and no other', async () => {
    const db = t.database.db;
    const [dev, other] = [await t.newDeveloper(), await t.newDeveloper()];
    const open = await createFixtureStore(db, []);
    const listing = await createFixtureStore(db, [], {
      accessPolicy: 'allow',
      allowedDevelopers: [dev.id],
    });
    const shut = await createFixtureStore(db, [], {
      accessPolicy: 'allow',
      allowedDevelopers: [other.id],
    });
    const closed = await closedStoreIds(db, dev.id);
    expect(closed).toContain(shut.id);
    expect(closed).not.toContain(listing.id);
    expect(closed).not.toContain(open.id);
    expect(await closedStoreIds(db, other.id)).toContain(listing.id);
  });

  // Every all-stores search sends this statement: with 100,000 stores, a scan of them all would
  // cost more than the search. The planner picks a scan for a table this small, so it is told to
  // avoid one; the index must then be usable (the statement's policy test implies its predicate).
  it('reads the stores through the index of the closed ones', async () => {
    const db = t.database.db;
    const dev = await t.newDeveloper();
    const plan = await db.transaction(async (tx) => {
      // Citus plans a reference table's read on a node: the setting must travel with it.
      await tx.execute(sql`SET LOCAL citus.propagate_set_commands = 'local'`);
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const rows = await queryRows<Record<string, string>>(
        tx,
        sql`EXPLAIN ${closedStoresQuery(tx, dev.id).getSQL()}`,
      );
      return rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan).toMatch(/Index (Only )?Scan (using|on) stores_not_open_idx/);
    expect(plan).not.toMatch(/Seq Scan on stores/);
  });
});
