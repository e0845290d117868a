import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../config/env';
import { openDatabase, type Database } from '../../db/client';
import { newId } from '../../db/ids';
import { orders } from '../../db/schema';
import { startStoreSim, type StoreSim } from '../../store-sim/server';
import { attachToken } from '../../stores/verification';
import { startTestServer, type TestServer } from '../../testing/server';
import { uniqueDomain } from '../../testing/unique';
import { requestHash } from '../idempotency';
import { claimDue, releaseAll } from '../lease';
import { startOrderReconciler } from '../reconciler';
import {
  address,
  fastOrderSettings,
  insertStore,
  newShopper,
  pastSettleTime,
  storefrontProduct,
} from '../../testing/fixtures/orders';
import { waitFor } from '../../testing/wait-for';
import type { FixtureProduct } from '../../testing/fixtures/admin-product';

const TOKEN = `shpat_${randomBytes(16).toString('hex')}`;
fastOrderSettings();

const catalogue: FixtureProduct[] = [
  {
    id: 7001,
    title: 'Rain Jacket',
    variants: [{ id: 70011, title: 'M', price: '90.00', available: true }],
  },
];
const SHOP = uniqueDomain('reconcile', 'test');
const ADMIN = '/admin/api/2026-10';

let t: TestServer;
let sim: StoreSim;
let dev: { id: string; key: string };
let storeId: string;
let userId: string;

const jacket = (profileId = userId) => ({
  items: [{ variant_id: '70011', quantity: 1 }],
  user_id: profileId,
  store_id: storeId,
});

interface Buyer {
  key: string;
  userId: string;
}

function buy(idempotencyKey?: string, as: Buyer = { key: dev.key, userId }) {
  return t.call('POST', '/buy', {
    key: as.key,
    body: jacket(as.userId),
    headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
  });
}

/** A developer of its own, for a test whose requests would spend the shared key's rate limit. */
async function newBuyer(): Promise<Buyer> {
  const { key } = await t.newDeveloper();
  return { key, userId: await newShopper(t, key) };
}

/** The reconciler runs every 50 ms here: 10 s is ample even on a loaded machine. */
function until(check: () => boolean | Promise<boolean>, what: string): Promise<boolean> {
  return waitFor(check, { timeoutMs: 10_000, what });
}

async function storedOrder(id: string) {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
  return row!;
}

function platformTimeout(ms: number): void {
  process.env.PLATFORM_TIMEOUT_MS = String(ms);
  resetEnvCache();
}

/** Lookups at the store: each starts with a first page (no page_info) and may follow links. */
function lookups() {
  const gets = sim
    .requests(SHOP)
    .filter((r) => r.method === 'GET' && r.path === `${ADMIN}/orders.json`);
  return {
    started: gets.filter((r) => !r.query.includes('page_info=')).length,
    pages: gets.length,
  };
}

/** An order placed at the store directly, as another sales channel (or our lost request) would. */
async function placeAtStore(tags: string): Promise<number> {
  const res = await fetch(`${sim.shopUrl(SHOP)}${ADMIN}/orders.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shopify-access-token': TOKEN },
    body: JSON.stringify({ order: { line_items: [{ variant_id: 70011, quantity: 1 }], tags } }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { order: { id: number } }).order.id;
}

async function ordersAtStore(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await placeAtStore(`walk-in-${i}`);
}

/**
 * The row a crash leaves: pending, sent to the store once, its lease held by a process that is
 * gone. `leaseMs` is how long that lease still runs (negative: it has lapsed).
 */
async function crashed(opts: { key?: string; leaseMs: number }): Promise<string> {
  const id = newId('ord');
  const minuteAgo = new Date(Date.now() - 60_000);
  await t.database.db.insert(orders).values({
    id,
    developerId: dev.id,
    profileId: userId,
    storeId,
    idempotencyKey: opts.key ?? null,
    requestHash: requestHash(jacket()),
    status: 'pending',
    attempts: 1,
    lines: [],
    // The snapshot an order keeps of the profile's address, as the service records it.
    shipping: { id: newId('ship'), profile_id: userId, ...address },
    leaseOwner: 'gone-host:4242:deadbeef',
    leaseUntil: new Date(Date.now() + opts.leaseMs),
    settleAfter: minuteAgo,
    createdAt: minuteAgo,
    updatedAt: minuteAgo,
  });
  return id;
}

beforeAll(async () => {
  sim = await startStoreSim({
    shops: [{ domain: SHOP, accessToken: TOKEN, products: catalogue.map(storefrontProduct) }],
  });
  t = await startTestServer();
  dev = await t.newDeveloper();
  storeId = await insertStore(t.database.db, {
    domain: SHOP,
    baseUrl: sim.shopUrl(SHOP),
    products: catalogue,
  });
  expect((await attachToken(t.database.db, storeId, TOKEN)).state).toBe('verified');
  userId = await newShopper(t, dev.key);
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});
beforeEach(() => sim.reset());

describe('looking an order up at the store', () => {
  it('finds an order that 260 later orders pushed off the first page, after a timeout', async () => {
    sim.inject({ kind: 'latency', delayMs: 1200, match: { method: 'POST' } });
    const first = await buy('behind-260');
    expect([first.status, first.body.code]).toEqual([502, 'STORE_PLATFORM_ERROR']);
    const id = /ord_[A-Za-z0-9]{20}/.exec(first.body.error)![0];
    await until(() => sim.orders(SHOP).length === 1, 'the late order at the store');
    await ordersAtStore(260);
    await pastSettleTime(t.database.db, id);

    const before = lookups();
    const retried = await buy('behind-260');
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(retried.body.order_id).toBe(id);
    const after = lookups();
    expect(after.started - before.started).toBe(1);
    expect(after.pages - before.pages).toBe(2);
    expect(await storedOrder(id)).toMatchObject({
      status: 'created',
      platformOrderId: String(sim.orders(SHOP)[0]!.id),
    });
    expect(sim.orders(SHOP).filter((o) => o.tags === id)).toHaveLength(1);
  });

  it('calls an order absent only after reading every page of its time window', async () => {
    await ordersAtStore(260);
    const id = await crashed({ key: 'absent-260', leaseMs: -1 });
    const res = await buy('absent-260');
    expect([res.status, res.body.code]).toEqual([502, 'STORE_PLATFORM_ERROR']);
    expect(res.body.error).toMatch(/the store has no such order/);
    expect(lookups()).toEqual({ started: 1, pages: 2 });
    expect((await storedOrder(id)).status).toBe('failed');
  });
});

describe('a retry with the key of an order in progress', () => {
  // These count the store's order lookups, and a lookup that missed the test's 400 ms timeout
  // on a loaded machine would be retried and counted twice.
  const fixtureTimeout = Number(process.env.PLATFORM_TIMEOUT_MS);
  beforeAll(() => platformTimeout(10_000));
  afterAll(() => platformTimeout(fixtureTimeout));

  it('answers at once with Retry-After while another process holds the order', async () => {
    const id = await crashed({ key: 'held-elsewhere', leaseMs: 45_000 });
    const res = await buy('held-elsewhere');
    expect([res.status, res.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE']);
    expect(res.body.error).toContain(id);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(40);
    expect(retryAfter).toBeLessThanOrEqual(45);
    expect(lookups().started).toBe(0);
    // Once the dead process's lease has lapsed, the next retry settles it.
    await t.database.db
      .update(orders)
      .set({ leaseUntil: new Date(Date.now() - 1) })
      .where(eq(orders.id, id));
    const placed = await placeAtStore(id);
    const settled = await buy('held-elsewhere');
    expect([settled.status, settled.body.order_id]).toEqual([201, id]);
    expect((await storedOrder(id)).platformOrderId).toBe(String(placed));
  });

  it('makes one store lookup for 50 concurrent retries after a store 500', async () => {
    const crowd = await newBuyer();
    sim.inject({ kind: 'status', status: 500, match: { method: 'POST' } });
    const first = await buy('fifty', crowd);
    expect([first.status, first.body.code]).toEqual([502, 'STORE_PLATFORM_ERROR']);
    const id = /ord_[A-Za-z0-9]{20}/.exec(first.body.error)![0];
    expect(lookups().started).toBe(1);
    // Right after that lookup, a retry hears at once to come back later.
    const soon = await buy('fifty', crowd);
    expect([soon.status, soon.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE']);
    expect(Number(soon.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(lookups().started).toBe(1);

    await pastSettleTime(t.database.db, id);
    sim.inject({ kind: 'latency', delayMs: 200, match: { method: 'GET' } });
    const retries = await Promise.all(Array.from({ length: 50 }, () => buy('fifty', crowd)));
    expect(lookups().started).toBe(2);
    const final = retries.find((r) => r.status === 502)!;
    expect(final.body.error).toMatch(/the store has no such order/);
    for (const res of retries) {
      if (res.status === 409) {
        expect(res.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      } else {
        expect(res.body).toEqual(final.body);
      }
    }
    expect((await storedOrder(id)).status).toBe('failed');
    expect(sim.orders(SHOP)).toHaveLength(0);
  });

  it('asks the store once while its lookup runs here, though the lease lapsed meanwhile', async () => {
    sim.inject({ kind: 'status', status: 500, match: { method: 'POST' } });
    const first = await buy('late-renewal');
    const id = /ord_[A-Za-z0-9]{20}/.exec(first.body.error)![0];
    await pastSettleTime(t.database.db, id);
    // Longer than a repeat waits for the answer of the work running here.
    sim.inject({ kind: 'latency', delayMs: 2_600, match: { method: 'GET' } });
    const settling = buy('late-renewal');
    await until(() => lookups().started === 2, 'the retry to ask the store');
    // What a renewal that came too late leaves: a lapsed lease, taken meanwhile and lapsed again.
    await t.database.db
      .update(orders)
      .set({ leaseOwner: 'gone-host:4242:late', leaseUntil: new Date(Date.now() - 1) })
      .where(eq(orders.id, id));
    const repeat = await buy('late-renewal');
    expect([repeat.status, repeat.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE']);
    // A reconciler's claim passes it over too. Suites share the database on a server, so other
    // orders it finds due are let go at once, not settled here.
    const claimed = await claimDue(t.database.db, 'reconcile-test', 100);
    await releaseAll(t.database.db, 'reconcile-test');
    expect(claimed.map((o) => o.id)).not.toContain(id);
    const settled = await settling;
    expect([settled.status, settled.body.code]).toEqual([502, 'STORE_PLATFORM_ERROR']);
    expect(lookups().started).toBe(2);
    expect((await storedOrder(id)).status).toBe('failed');
  });
});

describe('the background reconciler', () => {
  it('settles orders a crash left pending, without a retry', async () => {
    const found = await crashed({ leaseMs: -1 });
    const missing = await crashed({ leaseMs: -1 });
    const held = await crashed({ leaseMs: 60_000 });
    const placed = await placeAtStore(found);
    const reconciler = startOrderReconciler(t.database.db, { intervalMs: 50 });
    try {
      await until(
        async () =>
          (await storedOrder(found)).status !== 'pending' &&
          (await storedOrder(missing)).status !== 'pending',
        'the reconciler to settle both orders',
      );
    } finally {
      await reconciler.stop();
    }
    expect(await storedOrder(found)).toMatchObject({
      status: 'created',
      platformOrderId: String(placed),
      leaseOwner: null,
    });
    expect(await storedOrder(missing)).toMatchObject({
      status: 'failed',
      errorCode: 'STORE_PLATFORM_ERROR',
    });
    // A lease that still runs belongs to a request that may be alive: it is left alone.
    expect((await storedOrder(held)).status).toBe('pending');
    const got = await t.call('GET', `/orders/${found}`, { key: dev.key });
    expect(got.body.order).toMatchObject({ status: 'created' });
    await t.database.db.delete(orders).where(eq(orders.id, held));
  });

  it('waits for the store to be past creating an order late before failing it', async () => {
    const id = await crashed({ leaseMs: -1 });
    await t.database.db
      .update(orders)
      .set({ settleAfter: new Date(Date.now() + 600) })
      .where(eq(orders.id, id));
    const reconciler = startOrderReconciler(t.database.db, { intervalMs: 50 });
    try {
      await until(() => lookups().started >= 1, 'the first lookup');
      expect((await storedOrder(id)).status).toBe('pending');
      const placed = await placeAtStore(id);
      await until(async () => (await storedOrder(id)).status !== 'pending', 'the second lookup');
      expect(await storedOrder(id)).toMatchObject({
        status: 'created',
        platformOrderId: String(placed),
      });
    } finally {
      await reconciler.stop();
    }
  });

  it('settles each order once when two reconcilers share the database', async () => {
    const ids = [];
    for (let i = 0; i < 6; i++) {
      const id = await crashed({ leaseMs: -1 });
      await placeAtStore(id);
      ids.push(id);
    }
    // In the wire runs the second one has its own connections, as another replica would.
    let second: Database | undefined;
    if (process.env.TEST_DATABASE_URL)
      second = await openDatabase({ url: process.env.TEST_DATABASE_URL });
    const a = startOrderReconciler(t.database.db, { owner: 'replica-a', intervalMs: 600_000 });
    const b = startOrderReconciler((second ?? t.database).db, {
      owner: 'replica-b',
      intervalMs: 600_000,
    });
    try {
      let claimed = 0;
      for (let pass = 0; pass < 5; pass++) {
        const counts = await Promise.all([a.runOnce(), b.runOnce()]);
        claimed += counts[0] + counts[1];
      }
      // Other suites sharing a server's database may leave orders of their own for these two
      // to settle; each of this file's orders was claimed once: one lookup each at its store.
      expect(claimed).toBeGreaterThanOrEqual(ids.length);
    } finally {
      await a.stop();
      await b.stop();
      await second?.close();
    }
    expect(lookups().started).toBe(ids.length);
    for (const id of ids) expect((await storedOrder(id)).status).toBe('created');
  });

  it('stops cleanly: no pass runs after stop', async () => {
    const reconciler = startOrderReconciler(t.database.db, { intervalMs: 50 });
    await reconciler.stop();
    const id = await crashed({ leaseMs: -1 });
    await new Promise((r) => setTimeout(r, 300));
    expect(lookups().started).toBe(0);
    expect((await storedOrder(id)).status).toBe('pending');
    await t.database.db.delete(orders).where(eq(orders.id, id));
  });
});
