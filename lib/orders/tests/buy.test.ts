import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../config/env';
import { newId } from '../../db/ids';
import { orders, storeAllowedDevelopers, stores } from '../../db/schema';
import { attachToken } from '../../stores/verification';
import { requestHash } from '../idempotency';
import { startStoreSim, type StoreSim } from '../../store-sim/server';
import { startTestServer, type TestServer } from '../../testing/server';
import { uniqueDomain } from '../../testing/unique';
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

const OPERATOR = 'operator-token-for-tests-0123456789';
const ACME_TOKEN = `shpat_${randomBytes(16).toString('hex')}`;
process.env.OPERATOR_TOKEN = OPERATOR;
fastOrderSettings();

const catalogue: FixtureProduct[] = [
  {
    id: 9001,
    title: 'Linen Shirt',
    variants: [
      { id: 90011, title: 'S', price: '40.00', available: true },
      { id: 90012, title: 'M', price: '40.00', available: false },
    ],
  },
  {
    id: 9002,
    title: 'Wool Socks',
    variants: [{ id: 90021, title: 'One size', price: '7.25', available: true }],
  },
];
const otherCatalogue: FixtureProduct[] = [
  {
    id: 8001,
    title: 'Teapot',
    variants: [{ id: 80011, title: 'Blue', price: '30.00', available: true }],
  },
];

let t: TestServer;
let sim: StoreSim;
let dev: { id: string; key: string };
let acme: string;
let other: string;
let closed: string;
let userId: string;

const ACME = uniqueDomain('acme-outfitters', 'test');
const OTHER = uniqueDomain('other', 'test');
const CLOSED = uniqueDomain('closed', 'test');

function newUser(key = dev.key, withAddress = true): Promise<string> {
  return newShopper(t, key, withAddress);
}

function buy(body: unknown, opts: { key?: string; idempotencyKey?: string } = {}) {
  return t.call('POST', '/buy', {
    key: opts.key ?? dev.key,
    body,
    headers: opts.idempotencyKey ? { 'idempotency-key': opts.idempotencyKey } : {},
  });
}

const shirt = (quantity = 1) => ({
  items: [{ variant_id: '90011', quantity }],
  user_id: userId,
  store_id: acme,
});

function orderPosts(): number {
  return sim.requests(ACME).filter((r) => r.method === 'POST' && r.path.endsWith('/orders.json'))
    .length;
}

async function storedOrder(id: string) {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
  return row!;
}

beforeAll(async () => {
  sim = await startStoreSim({
    shops: [
      {
        domain: ACME,
        name: 'Acme Outfitters',
        accessToken: ACME_TOKEN,
        products: catalogue.map(storefrontProduct),
      },
      { domain: OTHER, products: otherCatalogue.map(storefrontProduct) },
      { domain: CLOSED, products: [] },
    ],
  });
  t = await startTestServer();
  dev = await t.newDeveloper();
  const db = t.database.db;
  acme = await insertStore(db, { domain: ACME, baseUrl: sim.shopUrl(ACME), products: catalogue });
  other = await insertStore(db, {
    domain: OTHER,
    baseUrl: sim.shopUrl(OTHER),
    products: otherCatalogue,
  });
  closed = await insertStore(db, {
    domain: CLOSED,
    baseUrl: sim.shopUrl(CLOSED),
    products: [],
    policy: 'allow',
  });
  expect((await attachToken(db, acme, ACME_TOKEN)).state).toBe('verified');
  userId = await newUser();
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});
beforeEach(() => sim.reset());

describe('POST /buy refusals', () => {
  it('answers AUTH_MISSING and INVALID_KEY', async () => {
    const missing = await t.call('POST', '/buy', { body: shirt() });
    expect([missing.status, missing.body.code]).toEqual([401, 'AUTH_MISSING']);
    const invalid = await buy(shirt(), { key: 'csk_nope' });
    expect([invalid.status, invalid.body.code]).toEqual([401, 'INVALID_KEY']);
  });

  it('answers BAD_REQUEST_ERROR naming the invalid field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ items: [], user_id: userId, store_id: acme }, /items must hold at least one item/],
      [{ user_id: userId, store_id: acme }, /items is required/],
      [
        { ...shirt(), items: [{ variant_id: '90011', quantity: 0 }] },
        /items\.0\.quantity must be at least 1/,
      ],
      [
        { ...shirt(), items: [{ variant_id: '90011', quantity: 1.5 }] },
        /items\.0\.quantity must be an integer/,
      ],
      [
        { ...shirt(), items: [{ variant_id: '90011', quantity: '2' }] },
        /items\.0\.quantity must be an integer/,
      ],
      [{ ...shirt(), items: [{ variant_id: '90011', quantity: 101 }] }, /at most 100/],
      [{ ...shirt(), items: [{ variant_id: true, quantity: 1 }] }, /items\.0\.variant_id/],
      [
        {
          ...shirt(),
          items: Array.from({ length: 51 }, (_, i) => ({ variant_id: i + 1, quantity: 1 })),
        },
        /at most 50 items/,
      ],
      [
        {
          ...shirt(),
          items: [
            { variant_id: 90011, quantity: 1 },
            { variant_id: '90011', quantity: 2 },
          ],
        },
        /items\.1\.variant_id repeats variant 90011/,
      ],
      [{ items: shirt().items, store_id: acme }, /user_id/],
    ];
    for (const [body, message] of cases) {
      const res = await buy(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST_ERROR');
      expect(res.body.error).toMatch(message);
    }
    const badKey = await buy(shirt(), { idempotencyKey: 'has space' });
    expect([badKey.status, badKey.body.code]).toEqual([400, 'BAD_REQUEST_ERROR']);
    expect(badKey.body.error).toMatch(/Idempotency-Key/);
  });

  it('refuses foreign and unavailable variants and a user without an address', async () => {
    const foreign = await buy({ ...shirt(), items: [{ variant_id: 80011, quantity: 1 }] });
    expect([foreign.status, foreign.body.code]).toEqual([400, 'BAD_REQUEST_ERROR']);
    expect(foreign.body.error).toBe(`items.0.variant_id 80011 is not a variant of store ${acme}`);
    const unavailable = await buy({ ...shirt(), items: [{ variant_id: '90012', quantity: 1 }] });
    expect(unavailable.body.error).toBe(
      'items.0.variant_id 90012 (Linen Shirt - M) is not available',
    );
    const homeless = await newUser(dev.key, false);
    const noAddress = await buy({ ...shirt(), user_id: homeless });
    expect([noAddress.status, noAddress.body.code]).toEqual([400, 'BAD_REQUEST_ERROR']);
    expect(noAddress.body.error).toMatch(/user_id .* has no shipping address attached/);
    expect(orderPosts()).toBe(0);
  });

  it('answers USER_NOT_FOUND, STORE_NOT_FOUND, FORBIDDEN and STORE_NOT_VERIFIED', async () => {
    const stranger = await t.newDeveloper();
    const theirs = await newUser(stranger.key);
    for (const user of ['prof_missing', theirs]) {
      const res = await buy({ ...shirt(), user_id: user });
      expect([res.status, res.body.code]).toEqual([404, 'USER_NOT_FOUND']);
    }
    const noStore = await buy({ ...shirt(), store_id: 'store_missing' });
    expect([noStore.status, noStore.body.code]).toEqual([404, 'STORE_NOT_FOUND']);
    const forbidden = await buy({ ...shirt(), store_id: closed });
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'FORBIDDEN']);
    // Admitted to the store, the same developer meets its verification next.
    await t.database.db
      .insert(storeAllowedDevelopers)
      .values({ storeId: closed, developerId: dev.id });
    const unverifiedClosed = await buy({ ...shirt(), store_id: closed });
    expect([unverifiedClosed.status, unverifiedClosed.body.code]).toEqual([
      409,
      'STORE_NOT_VERIFIED',
    ]);
    const unverified = await buy({
      ...shirt(),
      store_id: other,
      items: [{ variant_id: 80011, quantity: 1 }],
    });
    expect([unverified.status, unverified.body.code]).toEqual([409, 'STORE_NOT_VERIFIED']);
    expect(unverified.body.error).toMatch(/not verified/);
    expect(sim.requests().filter((r) => r.method === 'POST')).toHaveLength(0);
  });
});

describe('POST /buy success', () => {
  it('creates the order at the store and records it with lines, prices and the address', async () => {
    const res = await buy({
      ...shirt(),
      items: [
        { variant_id: 90011, quantity: 2 },
        { variant_id: '90021', quantity: 3 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      code: 'ORDER_CREATED',
      message: expect.any(String),
      order_id: expect.stringMatching(/^ord_/),
    });
    const [placed] = sim.orders(ACME);
    expect(placed).toMatchObject({
      email: address.email,
      financial_status: 'pending',
      tags: res.body.order_id,
      shipping_address: {
        first_name: 'Ada',
        address1: '1 Market St',
        zip: '94105',
        province_code: 'CA',
        country_code: 'US',
      },
    });
    expect(
      (placed!.line_items as Array<{ variant_id: number; quantity: number }>).map((l) => [
        l.variant_id,
        l.quantity,
      ]),
    ).toEqual([
      [90011, 2],
      [90021, 3],
    ]);
    expect(res.body.message).toContain(String(placed!.id));

    const got = await t.call('GET', `/orders/${res.body.order_id}`, { key: dev.key });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      code: 'ORDER_RETRIEVED',
      order: {
        id: res.body.order_id,
        user_id: userId,
        store_id: acme,
        status: 'created',
        platform_order_id: String(placed!.id),
        total_price: '101.75',
        shipping: { city: 'San Francisco' },
        lines: [
          {
            variant_id: '90011',
            product_id: '9001',
            title: 'Linen Shirt',
            variant_title: 'S',
            quantity: 2,
            price: '40.00',
          },
          {
            variant_id: '90021',
            product_id: '9002',
            title: 'Wool Socks',
            variant_title: 'One size',
            quantity: 3,
            price: '7.25',
          },
        ],
      },
    });
    const listed = await t.call('GET', `/orders?user_id=${userId}`, { key: dev.key });
    expect(listed.body.code).toBe('ORDERS_LISTED');
    expect(listed.body.orders[0].id).toBe(res.body.order_id);

    const stranger = await t.newDeveloper();
    const hidden = await t.call('GET', `/orders/${res.body.order_id}`, { key: stranger.key });
    expect([hidden.status, hidden.body.code]).toEqual([404, 'ORDER_NOT_FOUND']);
    const none = await t.call('GET', `/orders?user_id=${userId}`, { key: stranger.key });
    expect(none.body.orders).toEqual([]);
    const badLimit = await t.call('GET', '/orders?limit=0', { key: dev.key });
    expect([badLimit.status, badLimit.body.code]).toEqual([400, 'BAD_REQUEST_ERROR']);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer for the same body and refuses another body', async () => {
    const first = await buy(shirt(), { idempotencyKey: 'retry-1' });
    expect(first.status).toBe(201);
    const again = await buy(
      { ...shirt(), items: [{ variant_id: 90011, quantity: 1 }] },
      { idempotencyKey: 'retry-1' },
    );
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(sim.orders(ACME)).toHaveLength(1);
    const changed = await buy(shirt(2), { idempotencyKey: 'retry-1' });
    expect([changed.status, changed.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(changed.body.error).toContain(first.body.order_id);
    // Keys belong to a developer: another one may use the same string.
    const stranger = await t.newDeveloper();
    const theirUser = await newUser(stranger.key);
    const theirs = await buy(
      { ...shirt(), user_id: theirUser },
      { key: stranger.key, idempotencyKey: 'retry-1' },
    );
    expect(theirs.status).toBe(201);
    expect(sim.orders(ACME)).toHaveLength(2);
  });

  it('creates exactly one order for concurrent identical requests', async () => {
    sim.inject({ kind: 'latency', delayMs: 150, match: { method: 'POST' } });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => buy(shirt(), { idempotencyKey: 'race-1' })),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.order_id)).size).toBe(1);
    expect(sim.orders(ACME)).toHaveLength(1);
    expect(orderPosts()).toBe(1);
  });
});

describe('store platform failures', () => {
  async function failedOrder(res: { status: number; body: { code: string; error: string } }) {
    expect([res.status, res.body.code]).toEqual([502, 'STORE_PLATFORM_ERROR']);
    const id = /ord_[A-Za-z0-9]{20}/.exec(res.body.error)![0];
    const row = await storedOrder(id);
    expect(row).toMatchObject({ status: 'failed', errorCode: 'STORE_PLATFORM_ERROR', attempts: 1 });
    return id;
  }

  /** A 502 for an order the store may have: it stays pending, parked, and is never sent again. */
  async function undecidedOrder(res: {
    status: number;
    body: { code: string; error: string };
    headers: Headers;
  }) {
    expect([res.status, res.body.code]).toEqual([502, 'STORE_PLATFORM_ERROR']);
    expect(res.body.error).toMatch(/may still have received .* stays pending/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const id = /ord_[A-Za-z0-9]{20}/.exec(res.body.error)![0];
    const row = await storedOrder(id);
    expect(row).toMatchObject({ status: 'pending', leaseOwner: null, attempts: 1 });
    expect(row.settleAfter!.getTime()).toBeGreaterThan(row.createdAt.getTime());
    return id;
  }

  it('keeps an order pending after a 5xx, fails it once the store provably lacks it, never repeating the POST', async () => {
    sim.inject({ kind: 'status', status: 503, match: { method: 'POST' } });
    const res = await buy(shirt(), { idempotencyKey: 'five-hundred' });
    const id = await undecidedOrder(res);
    expect(res.body.error).toMatch(/503/);
    expect(orderPosts()).toBe(1);
    expect(sim.orders(ACME)).toHaveLength(0);
    // While the store could still create it, a retry hears to come back later...
    const early = await buy(shirt(), { idempotencyKey: 'five-hundred' });
    expect([early.status, early.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE']);
    expect(Number(early.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await storedOrder(id)).status).toBe('pending');
    // ...and afterwards a lookup that misses it is final, and that answer is replayed.
    await pastSettleTime(t.database.db, id);
    const settled = await buy(shirt(), { idempotencyKey: 'five-hundred' });
    expect([settled.status, settled.body.code]).toEqual([502, 'STORE_PLATFORM_ERROR']);
    expect(settled.body.error).toMatch(/the store has no such order/);
    expect(await storedOrder(id)).toMatchObject({ status: 'failed', leaseOwner: null });
    const replay = await buy(shirt(), { idempotencyKey: 'five-hundred' });
    expect(replay.body).toEqual(settled.body);
    expect(orderPosts()).toBe(1);
  });

  it('waits out a 429 as Retry-After says, then creates one order', async () => {
    sim.inject({ kind: 'status', status: 429, retryAfterSeconds: 0.2, match: { method: 'POST' } });
    const res = await buy(shirt());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(orderPosts()).toBe(2);
    expect(sim.orders(ACME)).toHaveLength(1);
  });

  it('gives up after the retry limit of 429s, or at once when Retry-After is too long', async () => {
    sim.inject({
      kind: 'status',
      status: 429,
      retryAfterSeconds: 0,
      times: 3,
      match: { method: 'POST' },
    });
    const exhausted = await buy(shirt());
    await failedOrder(exhausted);
    expect(exhausted.body.error).toMatch(/rate-limit/);
    expect(orderPosts()).toBe(3);
    sim.reset();
    sim.inject({ kind: 'status', status: 429, retryAfterSeconds: 30, match: { method: 'POST' } });
    await failedOrder(await buy(shirt()));
    expect(orderPosts()).toBe(1);
    expect(sim.orders(ACME)).toHaveLength(0);
  });

  it('keeps an order pending after a dropped connection, without a second attempt', async () => {
    sim.inject({ kind: 'drop', match: { method: 'POST' } });
    const res = await buy(shirt());
    await undecidedOrder(res);
    expect(orderPosts()).toBe(1);
    expect(sim.orders(ACME)).toHaveLength(0);
  });

  it('after a timeout, finds the order the store created late when the key is retried', async () => {
    sim.inject({ kind: 'latency', delayMs: 1200, match: { method: 'POST' } });
    const res = await buy(shirt(), { idempotencyKey: 'slow-1' });
    const id = await undecidedOrder(res);
    expect(res.body.error).toMatch(/no answer within 400 ms.*may still have received/);
    await waitFor(() => sim.orders(ACME).length === 1, {
      timeoutMs: 5_000,
      what: 'the order at the store',
    });
    await pastSettleTime(t.database.db, id);
    const retried = await buy(shirt(), { idempotencyKey: 'slow-1' });
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(retried.body.order_id).toBe(id);
    const row = await storedOrder(id);
    expect(row).toMatchObject({
      status: 'created',
      platformOrderId: String(sim.orders(ACME)[0]!.id),
    });
    expect(orderPosts()).toBe(1);
  });
});

describe('an order left pending by a request that died', () => {
  /** The row a crashed request leaves behind: pending, its last sign of life an hour ago. */
  async function abandoned(key: string, attempts: number): Promise<string> {
    const id = newId('ord');
    const hourAgo = new Date(Date.now() - 3_600_000);
    // The copy of the attached address a request records with its order.
    const profile = await t.call('GET', `/profiles/${userId}`, { key: dev.key });
    await t.database.db.insert(orders).values({
      id,
      developerId: dev.id,
      profileId: userId,
      storeId: acme,
      idempotencyKey: key,
      requestHash: requestHash(shirt()),
      status: 'pending',
      attempts,
      lines: [],
      shipping: profile.body.profile.shipping,
      createdAt: hourAgo,
      updatedAt: hourAgo,
    });
    return id;
  }

  it('is settled as created when the store has it, on a retry with its key', async () => {
    const id = await abandoned('crash-found', 1);
    const placed = await fetch(`${sim.shopUrl(ACME)}/admin/api/2026-10/orders.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': ACME_TOKEN },
      body: JSON.stringify({
        order: { line_items: [{ variant_id: 90011, quantity: 1 }], tags: id },
      }),
    });
    expect(placed.status).toBe(201);
    const res = await buy(shirt(), { idempotencyKey: 'crash-found' });
    expect([res.status, res.body.order_id]).toEqual([201, id]);
    expect(await storedOrder(id)).toMatchObject({ status: 'created' });
    expect(sim.orders(ACME)).toHaveLength(1);
  });

  it('is settled as failed when the store has no such order, never placing it again', async () => {
    for (const [key, attempts] of [
      ['crash-missing', 1],
      ['crash-early', 0],
    ] as const) {
      const id = await abandoned(key, attempts);
      const res = await buy(shirt(), { idempotencyKey: key });
      expect([res.status, res.body.code]).toEqual([502, 'STORE_PLATFORM_ERROR']);
      expect(res.body.error).toMatch(/stopped before the (store answered|store was called)/);
      expect(await storedOrder(id)).toMatchObject({ status: 'failed' });
    }
    expect(orderPosts()).toBe(0);
  });
});

describe('store tokens', () => {
  it('keeps the token encrypted at rest and never shows it', async () => {
    const [row] = await t.database.db.select().from(stores).where(eq(stores.id, acme));
    expect(JSON.stringify(row)).not.toContain(ACME_TOKEN);
    expect(row!.adminTokenEncrypted).toMatch(/^v1:/);
    const shown = await t.admin('GET', `/admin/stores/${acme}`);
    expect(JSON.stringify(shown.body)).not.toContain(ACME_TOKEN);
    expect(shown.body.store).toMatchObject({ has_admin_token: true, verified: true });
  });

  it('says what is wrong when STORE_TOKEN_KEY is missing or not the one the token was sealed with', async () => {
    const key = process.env.STORE_TOKEN_KEY;
    try {
      process.env.STORE_TOKEN_KEY = '';
      resetEnvCache();
      const attach = await t.admin('PUT', `/admin/stores/${acme}/token`, { token: ACME_TOKEN });
      expect([attach.status, attach.body.code]).toEqual([500, 'INTERNAL_ERROR']);
      expect(attach.body.error).toMatch(/STORE_TOKEN_KEY is not set/);
      process.env.STORE_TOKEN_KEY = randomBytes(32).toString('hex');
      resetEnvCache();
      const check = await t.admin('POST', `/admin/stores/${acme}/verify`);
      expect(check.body.error).toMatch(/cannot be decrypted with the current STORE_TOKEN_KEY/);
      const bought = await buy(shirt());
      expect([bought.status, bought.body.code]).toEqual([500, 'INTERNAL_ERROR']);
      expect(bought.body.error).toMatch(/cannot use the credentials/);
      expect(orderPosts()).toBe(0);
    } finally {
      process.env.STORE_TOKEN_KEY = key;
      resetEnvCache();
    }
    expect((await buy(shirt())).status).toBe(201);
  });

  it('marks a store unverified when its token stops working, and verified again after rotation', async () => {
    sim.inject({ kind: 'status', status: 401, match: { method: 'POST' } });
    const refused = await buy(shirt());
    expect([refused.status, refused.body.code]).toEqual([409, 'STORE_NOT_VERIFIED']);
    const store = (await t.admin('GET', `/admin/stores/${acme}`)).body.store;
    expect(store.verified).toBe(false);
    expect(store.verification_reason).toMatch(/token was refused/);
    expect((await buy(shirt())).body.code).toBe('STORE_NOT_VERIFIED');

    const wrong = await t.admin('PUT', `/admin/stores/${acme}/token`, { token: 'shpat_wrong' });
    expect(wrong.status).toBe(200);
    expect(wrong.body.store).toMatchObject({
      verified: false,
      verification_reason: expect.stringMatching(/Invalid API key/),
    });
    const reverified = await t.admin('POST', `/admin/stores/${acme}/verify`);
    expect([reverified.status, reverified.body.code]).toEqual([200, 'STORE_UNVERIFIED']);

    const rotated = await t.admin('PUT', `/admin/stores/${acme}/token`, { token: ACME_TOKEN });
    expect(rotated.body).toMatchObject({
      code: 'STORE_TOKEN_UPDATED',
      store: { verified: true, verification_reason: null },
    });
    expect(rotated.body.store.verified_at).toEqual(expect.any(String));
    expect((await buy(shirt())).status).toBe(201);
  });

  it('refuses a token that works, but for another shop', async () => {
    const impostorDomain = uniqueDomain('impostor', 'test');
    const impostor = await insertStore(t.database.db, {
      domain: impostorDomain,
      baseUrl: sim.shopUrl(ACME),
      products: [],
    });
    const res = await t.admin('PUT', `/admin/stores/${impostor}/token`, { token: ACME_TOKEN });
    expect([res.status, res.body.code]).toEqual([200, 'STORE_TOKEN_UPDATED']);
    expect(res.body.store).toMatchObject({
      verified: false,
      verification_reason: `The token belongs to shop ${ACME} / acme-outfitters.myshopify.com, not ${impostorDomain}`,
    });
    const missing = await t.admin('POST', '/admin/stores/store_missing/verify');
    expect([missing.status, missing.body.code]).toEqual([404, 'STORE_NOT_FOUND']);
  });

  it('leaves the recorded state alone when the platform cannot be reached for a check', async () => {
    sim.inject({ kind: 'status', status: 503, times: 3, match: { pathPrefix: '/admin' } });
    const res = await t.admin('POST', `/admin/stores/${acme}/verify`);
    expect([res.status, res.body.code]).toEqual([502, 'STORE_PLATFORM_ERROR']);
    expect(res.body.error).toMatch(/unchanged/);
    expect((await t.admin('GET', `/admin/stores/${acme}`)).body.store.verified).toBe(true);
  });

  it('lists a store’s orders for operators', async () => {
    const bought = await buy(shirt());
    expect(bought.status).toBe(201);
    const res = await t.admin('GET', `/admin/stores/${acme}/orders`);
    expect(res.status).toBe(200);
    expect(res.body.orders[0]).toMatchObject({
      id: bought.body.order_id,
      store_id: acme,
      developer_id: dev.id,
    });
    const denied = await t.call('GET', `/admin/stores/${acme}/orders`, { key: dev.key });
    expect(denied.status).toBe(401);
  });
});
