import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows, type Database } from '../db/client';
import { textVectorIndexExists } from '../search/index/indexer';
import { startStoreSim, type StoreSim } from '../store-sim/server';
import { openCliHolder, runCli } from '../testing/cli';
import { uniqueDomain } from '../testing/unique';

/** `store sync-all`: many stores as one load, a store that cannot sync named without stopping it. */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-sync-all-'));
const DOMAINS = [uniqueDomain('sync-all-a', 'test'), uniqueDomain('sync-all-b', 'test')];
const COUNTS = [260, 7];

function catalogue(first: number, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    id: first + i,
    title: `Stoneware bowl ${i}`,
    handle: `bowl-${i}`,
    tags: [],
    images: [],
    options: [{ name: 'Title', values: ['Default Title'] }],
    variants: [{ id: first + 500_000 + i, title: 'Default Title', price: '9.50', available: true }],
  }));
}

let sim: StoreSim;
let holder: Database;

const cli = (args: string[]) =>
  runCli(args, { env: { DATA_DIR: dataDir, DATABASE_URL: process.env.TEST_DATABASE_URL } });

beforeAll(async () => {
  sim = await startStoreSim({
    shops: DOMAINS.map((domain, s) => ({
      domain,
      products: catalogue(9_600_000 + s * 1000, COUNTS[s]!),
    })),
  });
  holder = await openCliHolder(dataDir);
});
afterAll(async () => {
  await holder?.close();
  await sim?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('syncs the named stores, reports one that cannot sync, and leaves the vector index built', async () => {
  const ids: string[] = [];
  for (const domain of DOMAINS) {
    const added = await cli([
      'store',
      'add',
      '--domain',
      domain,
      '--base-url',
      sim.shopUrl(domain),
      '--json',
    ]);
    expect(added.code, added.stderr).toBe(0);
    ids.push(JSON.parse(added.stdout).store.id);
  }
  const run = await cli(['store', 'sync-all', ids[0]!, 'st_no_such_store', ids[1]!, '--json']);
  expect(run.code).toBe(1);
  expect(run.stderr, run.stdout).toMatch(/1 of 3 stores did not sync/);
  const report = JSON.parse(run.stdout);
  expect(report.stores.map((s: { state: string }) => s.state)).toEqual([
    'succeeded',
    'failed',
    'succeeded',
  ]);
  expect(report.stores[1].error).toMatch(/st_no_such_store/);
  expect(report.products).toBe(COUNTS[0]! + COUNTS[1]!);
  expect(report.index_build_seconds).toBeGreaterThanOrEqual(0);

  for (const [s, id] of ids.entries()) {
    const [row] = await queryRows<{ products: number; vectors: number; state: string }>(
      holder.db,
      sql`SELECT (SELECT count(*)::int FROM products WHERE store_id = ${id}) AS products,
                 (SELECT count(*)::int FROM product_embeddings WHERE store_id = ${id} AND kind = 'text') AS vectors,
                 (SELECT sync_state FROM stores WHERE id = ${id}) AS state`,
    );
    expect(row).toEqual({ products: COUNTS[s], vectors: COUNTS[s], state: 'succeeded' });
  }
  expect(await textVectorIndexExists(holder.db)).toBe(true);

  const refused = await cli(['store', 'sync-all', '--concurrency', '0']);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/--concurrency must be a whole number/);
}, 300_000);
