import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureStore } from '../testing/fixtures/catalogue';
import { isCitus } from '../db/engine';
import { genericPlanAvoidingScans, planAvoidingScans } from '../testing/plan';
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
  // cost more than the search.
  it('reads the stores through the index of the closed ones', async () => {
    const dev = await t.newDeveloper();
    const db = t.database.db;
    const plan = await planAvoidingScans(db, closedStoresQuery(db, dev.id).getSQL());
    expect(plan).toMatch(/Index (Only )?Scan (using|on) stores_not_open_idx/);
    expect(plan).not.toMatch(/Seq Scan on stores/);
  });

  // The statement is prepared: the plan the server keeps for it is made without the developer's
  // id, and must still read the index. Citus sends a reference table's read to a node as text with
  // the values in it, so there is no generic plan of it to look at.
  it('reads them through that index on the plan kept for every run', async (ctx) => {
    const db = t.database.db;
    if (await isCitus(db)) ctx.skip();
    const dev = await t.newDeveloper();
    const plan = await genericPlanAvoidingScans(db, closedStoresQuery(db, dev.id).getSQL());
    expect(plan).toMatch(/Index (Only )?Scan (using|on) stores_not_open_idx/);
    expect(plan).not.toMatch(/Seq Scan on stores/);
  });
});
