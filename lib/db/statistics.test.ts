import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureStore } from '../testing/fixtures/catalogue';
import { openOwnDatabase, type OpenOwnDatabase } from '../testing/own-database';
import { addStore, setAccessPolicy } from '../stores/registry';
import { queryRows } from './client';
import { analyzeStorePolicies, maintainSearchTables } from './statistics';

// The planner's counts are of whole tables: other files' products must not move them.
let own: OpenOwnDatabase;

beforeAll(async () => {
  own = await openOwnDatabase('statistics');
});
afterAll(() => own?.close());

/** The table's rows as the planner counted them at the last ANALYZE (-1: never). */
async function planned(table: 'products' | 'stores'): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    own.database.db,
    sql`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = ${table}::regclass`,
  );
  return row!.n;
}

let nextId = 880_000;
const items = (n: number) =>
  Array.from({ length: n }, () => {
    const id = nextId++;
    return {
      id,
      title: `Statistics Fixture ${id}`,
      tags: [],
      variants: [{ id: id * 10, price: '5.00' }],
    };
  });

describe('maintainSearchTables', () => {
  it('analyzes a new catalogue, then once 50 rows and a tenth changed in a write or since', async () => {
    const db = own.database.db;
    await createFixtureStore(db, items(3));
    expect(await planned('products')).toBe(3);

    // A small sync leaves the statistics as they are: 3 more products are under 50 + 0.3.
    await createFixtureStore(db, items(3));
    expect(await planned('products')).toBe(3);
    await maintainSearchTables(db, 44);
    expect(await planned('products')).toBe(3);

    // A write of 51 rows reaches it, as 51 more products since the last count do.
    await maintainSearchTables(db, 51);
    expect(await planned('products')).toBe(6);

    await createFixtureStore(db, items(51));
    expect(await planned('products')).toBe(57);
  });
});

/** The policies the planner's statistics of the stores hold as most common. */
async function plannedPolicies(): Promise<string[]> {
  const [row] = await queryRows<{ values: string | null }>(
    own.database.db,
    sql`SELECT most_common_vals::text AS values FROM pg_stats
        WHERE tablename = 'stores' AND attname = 'access_policy'`,
  );
  return row?.values ? row.values.replace(/[{}]/g, '').split(',').sort() : [];
}

describe('setAccessPolicy', () => {
  it('refreshes the statistics that the closed stores read is planned on', async () => {
    const db = own.database.db;
    const [a, b] = [await createFixtureStore(db, []), await createFixtureStore(db, [])];
    await setAccessPolicy(db, a.id, 'allow');
    await setAccessPolicy(db, b.id, 'allow');
    expect(await plannedPolicies()).toEqual(['allow', 'open']);
    await setAccessPolicy(db, a.id, 'open');
    await setAccessPolicy(db, b.id, 'open');
    expect(await plannedPolicies()).toEqual(['open']);
  });
});

let nextDomain = 0;
const register = async (count: number) => {
  for (let i = 0; i < count; i++) {
    await addStore(own.database.db, { domain: `statistics-${nextDomain++}.example.com` });
  }
};

describe('addStore', () => {
  it('analyzes the stores once registrations reach 50 and a tenth since the last count', async () => {
    await analyzeStorePolicies(own.database.db);
    const counted = await planned('stores');
    const threshold = Math.ceil(50 + 0.1 * counted);
    await register(threshold - 1);
    expect(await planned('stores')).toBe(counted);
    await register(1);
    expect(await planned('stores')).toBe(counted + threshold);
  });
});
