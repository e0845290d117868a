import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows, type Database } from '../db/client';
import { stores } from '../db/schema';
import { startStoreSim, type StoreSim } from '../store-sim/server';
import { openCliHolder, runCli } from '../testing/cli';
import { uniqueDomain } from '../testing/unique';
import { waitFor } from '../testing/wait-for';

/**
 * Issue 49: Ctrl-C during `store sync` stops it after the page in hand. The store records the
 * sync as interrupted, what it committed stays (and nothing is removed: the listing was not seen
 * whole), and the next sync runs whole.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-interrupt-'));
const DOMAIN = uniqueDomain('cli-interrupt', 'test');
/** Two pages of products.json (250 a page). */
const COUNT = 300;

function catalogue(titlePrefix: string, count = COUNT) {
  return Array.from({ length: count }, (_, i) => ({
    id: 9_100_000 + i,
    title: `${titlePrefix} ${i}`,
    handle: `p-${i}`,
    tags: [],
    images: [],
    options: [{ name: 'Title', values: ['Default Title'] }],
    variants: [{ id: 9_200_000 + i, title: 'Default Title', price: '5.00', available: true }],
  }));
}

let sim: StoreSim;
let holder: Database;
let storeId: string;

const cli = (args: string[], started?: (child: ChildProcess) => void) =>
  runCli(args, {
    env: { DATA_DIR: dataDir, DATABASE_URL: process.env.TEST_DATABASE_URL },
    started,
  });

beforeAll(async () => {
  sim = await startStoreSim({ shops: [{ domain: DOMAIN, products: catalogue('Plain mug') }] });
  holder = await openCliHolder(dataDir);
  const added = await cli([
    'store',
    'add',
    '--domain',
    DOMAIN,
    '--base-url',
    sim.shopUrl(DOMAIN),
    '--json',
  ]);
  expect(added.code, added.stderr).toBe(0);
  storeId = JSON.parse(added.stdout).store.id;
});
afterAll(async () => {
  await holder?.close();
  await sim?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function storeState() {
  const [row] = await holder.db
    .select({ state: stores.syncState, progress: stores.syncProgress })
    .from(stores)
    .where(eq(stores.id, storeId));
  const titles = await queryRows<{ title: string }>(
    holder.db,
    sql`SELECT title FROM products WHERE store_id = ${storeId} ORDER BY external_id`,
  );
  return { ...row!, titles: titles.map((t) => t.title) };
}

it('keeps what an interrupted sync committed, removes nothing, and the next sync runs whole', async () => {
  const first = await cli(['store', 'sync', storeId, '--json']);
  expect(first.code, first.stderr).toBe(0);
  expect((await storeState()).titles).toHaveLength(COUNT);

  // Page 1 changes and comes at once; page 2 would take two minutes: Ctrl-C meanwhile.
  sim.setProducts(DOMAIN, catalogue('Glazed mug'));
  sim.inject([
    { kind: 'latency', delayMs: 0, match: { pathPrefix: '/products.json' } },
    { kind: 'latency', delayMs: 120_000, match: { pathPrefix: '/products.json' } },
  ]);
  const pageTwoRequests = () =>
    sim.requests(DOMAIN).filter((r) => r.path === '/products.json' && r.query.includes('page=2'))
      .length;
  const earlier = pageTwoRequests();
  const pageTwo = () => pageTwoRequests() > earlier;
  const events: string[] = [];
  const interrupted = await cli(['store', 'sync', storeId, '--json'], (child) => {
    void waitFor(pageTwo, { timeoutMs: 120_000, what: 'the request for page 2' }).then(() => {
      events.push('interrupt');
      child.kill('SIGINT');
    });
  });
  events.push('exited');
  expect(events).toEqual(['interrupt', 'exited']);
  expect(interrupted.code).not.toBe(0);
  expect(interrupted.stderr).toMatch(/stopping after the page in hand/);
  expect(JSON.parse(interrupted.stdout)).toMatchObject({ state: 'interrupted' });

  const after = await storeState();
  expect(after.state).toBe('interrupted');
  expect(after.progress).toMatchObject({ pages: 1, changed: 250, removed: 0 });
  // Page 1's changes are written; page 2's products, unseen this time, are still there.
  expect(after.titles).toHaveLength(COUNT);
  expect(after.titles.filter((t) => t.startsWith('Glazed'))).toHaveLength(250);

  // The next sync reads every page again, and removes what the store no longer lists.
  sim.setProducts(DOMAIN, catalogue('Glazed mug', COUNT - 10));
  const next = await cli(['store', 'sync', storeId, '--json']);
  expect(next.code, next.stderr).toBe(0);
  const whole = await storeState();
  expect(whole.state).toBe('succeeded');
  expect(whole.progress).toMatchObject({ pages: 2, seen: COUNT - 10, removed: 10 });
  expect(whole.titles).toHaveLength(COUNT - 10);
  expect(whole.titles.every((t) => t.startsWith('Glazed'))).toBe(true);
}, 300_000);
