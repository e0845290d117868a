import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../auth/keys';
import { orders } from '../../db/schema';
import { setEnv } from '../../testing/env';
import { fastOrderSettings, newShopper } from '../../testing/fixtures/orders';
import { checkoutRequest, payment, startTeaShop, type TeaShop } from '../../ucp/tests/tea-shop';

/**
 * A /buy order records the client it came through (X-Order-Source); a UCP checkout's order is
 * ucp, and belongs to the caller's profile X-Profile-Id names. At the tea shop of the UCP tests.
 */
process.env.OPERATOR_TOKEN = 'operator-token-for-order-source-tests-0123456789';
fastOrderSettings();

let shop: TeaShop;
let dev: { id: string; key: string };
let dashboardKey: string;
let profileId: string;

beforeAll(async () => {
  shop = await startTeaShop();
  dev = await shop.t.newDeveloper();
  // The dashboard's key is another key of the same developer, as boot makes it.
  dashboardKey = (await createKey(shop.t.database.db, dev.id, 'dashboard')).key;
  setEnv({ DASHBOARD_API_KEY: dashboardKey });
  profileId = await newShopper(shop.t, dev.key);
});
afterAll(async () => {
  setEnv({ DASHBOARD_API_KEY: undefined });
  await shop?.close();
});

async function sourceOf(orderId: string): Promise<string> {
  const got = await shop.t.call('GET', `/orders/${orderId}`, { key: dev.key });
  expect(got.status).toBe(200);
  return got.body.order.source;
}

async function buy(key: string, headers: Record<string, string>): Promise<string> {
  const res = await shop.t.call('POST', '/buy', {
    key,
    body: {
      items: [{ variant_id: '70011', quantity: 1 }],
      user_id: profileId,
      store_id: shop.storeId,
    },
    headers,
  });
  expect([res.status, res.body.code]).toEqual([201, 'ORDER_CREATED']);
  return res.body.order_id;
}

/** A checkout of the developer's, ready to complete (ground shipping chosen). */
async function readyCheckout(key: string): Promise<string> {
  const created = await shop.ucp('POST', '/checkout-sessions', {
    headers: { 'X-API-Key': key, 'Idempotency-Key': randomUUID() },
    body: checkoutRequest(),
  });
  expect([created.status, created.body.status]).toEqual([201, 'ready_for_complete']);
  return created.body.id;
}

function complete(key: string | null, id: string, headers: Record<string, string>) {
  return shop.ucp('POST', `/checkout-sessions/${id}/complete`, {
    headers: { ...(key ? { 'X-API-Key': key } : {}), 'Idempotency-Key': randomUUID(), ...headers },
    body: payment(),
  });
}

describe('POST /buy records the client that placed the order', () => {
  it('api without a header, mcp when the client names it, whatever the key', async () => {
    expect(await sourceOf(await buy(dev.key, {}))).toBe('api');
    expect(await sourceOf(await buy(dev.key, { 'X-Order-Source': 'mcp' }))).toBe('mcp');
    expect(await sourceOf(await buy(dev.key, { 'X-Order-Source': 'store-staff' }))).toBe('api');
  });

  it("dashboard only with the dashboard's own key: another key's claim records api", async () => {
    expect(await sourceOf(await buy(dev.key, { 'X-Order-Source': 'dashboard' }))).toBe('api');
    expect(await sourceOf(await buy(dashboardKey, { 'X-Order-Source': 'dashboard' }))).toBe(
      'dashboard',
    );
    // The dashboard's key without the header is a client like any other.
    expect(await sourceOf(await buy(dashboardKey, {}))).toBe('api');
  });
});

describe("a completed UCP checkout's order", () => {
  it("belongs to the X-Profile-Id profile and lists among that profile's orders", async () => {
    const id = await readyCheckout(dashboardKey);
    const done = await complete(dashboardKey, id, {
      'X-Order-Source': 'dashboard',
      'X-Profile-Id': profileId,
    });
    expect([done.status, done.body.status]).toEqual([200, 'completed']);
    const listed = await shop.t.call('GET', `/orders?user_id=${profileId}`, { key: dev.key });
    const order = listed.body.orders.find((o: { id: string }) => o.id === done.body.order.id);
    // Its UCP routes find it by its source, which stays ucp whichever client completed it.
    expect(order).toMatchObject({ user_id: profileId, source: 'ucp' });
    const read = await shop.ucp('GET', `/orders/${order.id}`, {
      headers: { 'X-API-Key': dashboardKey },
    });
    expect([read.status, read.body.checkout_id]).toEqual([200, id]);
  });

  it('belongs to no profile without X-Profile-Id', async () => {
    const plain = await complete(dev.key, await readyCheckout(dev.key), {
      'X-Order-Source': 'mcp',
    });
    const got = await shop.t.call('GET', `/orders/${plain.body.order.id}`, { key: dev.key });
    expect(got.body.order).toMatchObject({ source: 'ucp', user_id: null });
  });

  it("refuses another developer's profile, and a keyless agent's, before anything is paid", async () => {
    const other = await shop.t.newDeveloper();
    const stranger = await newShopper(shop.t, other.key);
    const id = await readyCheckout(dev.key);
    const refused = await complete(dev.key, id, { 'X-Profile-Id': stranger });
    expect([refused.status, refused.body.code]).toEqual([404, 'PROFILE_NOT_FOUND']);
    const keyless = await shop.ucp('POST', '/checkout-sessions', {
      headers: { 'Idempotency-Key': randomUUID() },
      body: checkoutRequest(),
    });
    const agentRefused = await complete(null, keyless.body.id, { 'X-Profile-Id': profileId });
    expect([agentRefused.status, agentRefused.body.code]).toEqual([404, 'PROFILE_NOT_FOUND']);
    // Nothing was placed: the checkout is still ready and has no order.
    const again = await shop.ucp('GET', `/checkout-sessions/${id}`, {
      headers: { 'X-API-Key': dev.key },
    });
    expect([again.body.status, again.body.order]).toEqual(['ready_for_complete', undefined]);
    const placed = await shop.t.database.db.select().from(orders).where(eq(orders.checkoutId, id));
    expect(placed).toEqual([]);
  });
});
