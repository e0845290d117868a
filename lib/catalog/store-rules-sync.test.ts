import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeDiscountCodes, storeShippingRates } from '../db/schema';
import { startStoreSim, type ShopRules, type StoreSim } from '../store-sim/server';
import { readUcpShopProducts, readUcpShopRules } from '../store-sim/ucp-data';
import { setEnv } from '../testing/env';
import { fastOrderSettings } from '../testing/fixtures/orders';
import { startTestServer, type TestServer } from '../testing/server';
import { uniqueDomain } from '../testing/unique';
import { waitFor } from '../testing/wait-for';
import { syncStoreRules } from './store-rules-sync';
import { requireStore } from '../stores/registry';
import { importStoreRules } from '../ucp/rules/import';
import { readPaymentHandlers } from '../ucp/rules/read';
import { ruleSources } from '../ucp/rules/sources';
import { ucpCheckoutSchemas } from '../ucp/schemas';
import { payment } from '../ucp/tests/tea-shop';

fastOrderSettings();
setEnv({ OPERATOR_TOKEN: `op_${randomBytes(16).toString('hex')}` });

const SHOP_DIR = path.join(__dirname, '../store-sim/fixtures/ucp-shop');
const rules = readUcpShopRules(SHOP_DIR);
const token = `shpat_${randomBytes(16).toString('hex')}`;
const domain = uniqueDomain('flower-rules', 'test');
const AGENT = 'https://agent.example/profiles/shopper.json';
let sim: StoreSim;
let t: TestServer;
let storeId: string;

beforeAll(async () => {
  sim = await startStoreSim({
    shops: [{ domain, accessToken: token, products: readUcpShopProducts(SHOP_DIR), rules }],
  });
  t = await startTestServer();
  const created = await t.admin('POST', '/admin/stores', {
    domain,
    base_url: sim.shopUrl(domain),
  });
  expect(created.status).toBe(201);
  storeId = created.body.store.id;
  const verified = await t.admin('PUT', `/admin/stores/${storeId}/token`, { token });
  expect(verified.body.store.verified, JSON.stringify(verified.body)).toBe(true);
  const handlers = path.join(__dirname, '../testing/ucp/payment-handlers.json');
  const open = await t.admin('PUT', `/admin/stores/${storeId}/ucp`, {
    agent_access: 'open',
    payment_handlers: readPaymentHandlers(readFileSync(handlers, 'utf8'), handlers),
  });
  expect(open.status).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

/** A catalogue sync through the operator API, to its end. */
async function sync() {
  expect((await t.admin('POST', `/admin/stores/${storeId}/sync`, {})).status).toBe(202);
  const store = await waitFor(
    async () => {
      const res = await t.admin('GET', `/admin/stores/${storeId}`);
      return res.body.store.sync.state !== 'running' && res.body.store;
    },
    { timeoutMs: 30_000, what: 'the sync to end', intervalMs: 50 },
  );
  expect(store.sync.state).toBe('succeeded');
}

async function ucp(method: string, route: string, body?: unknown) {
  const res = await fetch(`${t.baseUrl}/ucp/${storeId}${route}`, {
    method,
    headers: {
      'UCP-Agent': `profile="${AGENT}"`,
      'Request-Signature': 'test',
      'content-type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: any = await res.json();
  expect(res.status, JSON.stringify(json)).toBeLessThan(300);
  return json;
}

/** A checkout of one item for John Doe, whom the store knows, with the method to fill. */
function johnsCheckout(item: string, codes: string[] = []) {
  return ucp('POST', '/checkout-sessions', {
    currency: 'USD',
    line_items: [{ item: { id: item, title: item }, quantity: 1 }],
    buyer: { email: 'john.doe@example.com' },
    discounts: { codes },
    payment: { instruments: [] },
    fulfillment: { methods: [{ type: 'shipping' }] },
  });
}

/** The checkout after choosing a saved address and one of its shipping options. */
function shipTo(checkoutId: string, destination: string, option: string) {
  return ucp('PUT', `/checkout-sessions/${checkoutId}`, {
    fulfillment: {
      methods: [
        {
          type: 'shipping',
          selected_destination_id: destination,
          groups: [{ selected_option_id: option }],
        },
      ],
    },
  });
}

const totalsOf = (checkout: any) => checkout.totals.map((t: any) => [t.type, t.amount]);

/** The shipping options to a saved address, as [id, title, amount]. */
async function optionsTo(checkoutId: string, destination: string) {
  const body = await ucp('PUT', `/checkout-sessions/${checkoutId}`, {
    fulfillment: { methods: [{ type: 'shipping', selected_destination_id: destination }] },
  });
  return body.fulfillment.methods[0].groups[0].options.map((o: any) => [
    o.id,
    o.title,
    o.totals[1].amount,
  ]);
}

async function ratesInDatabase() {
  return t.database.db
    .select({
      id: storeShippingRates.id,
      country: storeShippingRates.countryCode,
      level: storeShippingRates.serviceLevel,
      price: storeShippingRates.price,
    })
    .from(storeShippingRates)
    .where(eq(storeShippingRates.storeId, storeId))
    .orderBy(storeShippingRates.id);
}

const withStandardAt = (price: number): ShopRules => ({
  ...rules,
  shippingRates: rules.shippingRates!.map((r) => (r.id === 'std-ship' ? { ...r, price } : r)),
});

describe("a store's checkout rules synced from its Admin API", () => {
  it("lets a checkout see the store's shipping options, apply its code and fill a saved address", async () => {
    await sync();
    await sync();
    // Twice leaves one copy, the levels read from the rates' names, the ids as Shopify gave them.
    expect(await ratesInDatabase()).toEqual([
      { id: 'exp-ship-intl', country: 'default', level: 'express', price: 2500 },
      { id: 'exp-ship-us', country: 'US', level: 'express', price: 1500 },
      { id: 'std-ship', country: 'default', level: 'standard', price: 500 },
    ]);
    expect(await ruleSources(t.database.db, storeId)).toEqual({
      shipping_rates: 'shopify',
      discounts: 'shopify',
      promotions: 'shopify',
      customers: 'shopify',
      stock: 'shopify',
    });

    const checkout = await johnsCheckout('pot_ceramic', ['10OFF']);
    const method = checkout.fulfillment.methods[0];
    expect(
      method.destinations.map((d: any) => [d.id, d.street_address, d.address_country]),
    ).toEqual([
      ['addr_1', '123 Main St', 'US'],
      ['addr_2', '456 Oak Ave', 'CA'],
    ]);
    expect(checkout.discounts.applied.map((d: any) => [d.code, d.amount])).toEqual([
      ['10OFF', 150],
    ]);
    expect(await optionsTo(checkout.id, 'addr_1')).toEqual([
      ['std-ship', 'Standard Shipping', 500],
      ['exp-ship-us', 'Express Shipping (US)', 1500],
    ]);
    expect(await optionsTo(checkout.id, 'addr_2')).toEqual([
      ['std-ship', 'Standard Shipping', 500],
      ['exp-ship-intl', 'International Express', 2500],
    ]);
    // promo_2 is served as a free-shipping price rule with the roses as its prerequisite
    // product and no code: Shopify applies a price rule only through its codes, so the roses
    // pay for shipping here too.
    const roses = await johnsCheckout('bouquet_roses', ['FIXED500']);
    expect(roses.discounts.applied.map((d: any) => [d.code, d.amount])).toEqual([
      ['FIXED500', 500],
    ]);
    expect((await optionsTo(roses.id, 'addr_1'))[0]).toEqual([
      'std-ship',
      'Standard Shipping',
      500,
    ]);
  });

  it('makes a free-shipping price rule a code: shipping is paid without it and taken off with it', async () => {
    sim.setRules(domain, {
      ...rules,
      discounts: [
        ...rules.discounts!,
        { code: 'SHIPFREE', type: 'free_shipping', value: 0, description: 'Free shipping' },
      ],
    });
    await sync();

    const without = await shipTo((await johnsCheckout('pot_ceramic')).id, 'addr_1', 'exp-ship-us');
    expect(totalsOf(without)).toEqual([
      ['subtotal', 1500],
      ['fulfillment', 1500],
      ['total', 3000],
    ]);

    // Valid before an option is chosen: kept in `codes`, nothing applied yet, no warning.
    const coded = await johnsCheckout('pot_ceramic', ['SHIPFREE']);
    expect([coded.discounts, coded.messages]).toEqual([{ codes: ['SHIPFREE'], applied: [] }, []]);
    const shipped = await shipTo(coded.id, 'addr_1', 'exp-ship-us');
    expect(shipped.discounts.applied).toEqual([
      {
        code: 'SHIPFREE',
        title: 'Free shipping',
        amount: 1500,
        allocations: [{ path: "$.totals[?(@.type=='fulfillment')]", amount: 1500 }],
      },
    ]);
    expect(totalsOf(shipped)).toEqual([
      ['subtotal', 1500],
      ['discount', 1500],
      ['fulfillment', 1500],
      ['total', 1500],
    ]);
    for (const schema of Object.values(ucpCheckoutSchemas))
      expect(schema.safeParse(shipped).success).toBe(true);

    // The store's order takes the shipping off as Shopify's `shipping` discount code.
    const done = await ucp('POST', `/checkout-sessions/${coded.id}/complete`, payment());
    expect(done.status).toBe('completed');
    const placed: any = sim.orders(domain).at(-1);
    expect([placed.shipping_lines[0].price, placed.discount_codes]).toEqual([
      '15.00',
      [{ code: 'SHIPFREE', amount: '15.00', type: 'shipping' }],
    ]);
    sim.setRules(domain, rules);
  });

  it('takes a changed rate at the next sync, and keeps a part whose read fails', async () => {
    sim.setRules(domain, withStandardAt(700));
    await sync();
    expect((await optionsTo((await johnsCheckout('pot_ceramic')).id, 'addr_1'))[0]).toEqual([
      'std-ship',
      'Standard Shipping',
      700,
    ]);

    // A read that fails (every attempt: PLATFORM_RETRY_LIMIT 2, three) leaves its part as it
    // was; the parts read succeed.
    sim.setRules(domain, { ...withStandardAt(900), discounts: [] });
    sim.inject({
      kind: 'status',
      status: 503,
      match: { pathRegex: 'price_rules\\.json' },
      times: 3,
    });
    await sync();
    const after = await johnsCheckout('pot_ceramic', ['10OFF']);
    expect(after.discounts.applied.map((d: any) => d.code)).toEqual(['10OFF']);
    expect((await optionsTo(after.id, 'addr_1'))[0]).toEqual([
      'std-ship',
      'Standard Shipping',
      900,
    ]);
    sim.setRules(domain, rules);
  });

  it('leaves a part the store imported to the import, and syncs the others', async () => {
    await importStoreRules(t.database.db, storeId, {
      discounts: [{ code: 'LOCAL5', type: 'percentage', value: 5, description: 'Imported' }],
    });
    sim.setRules(domain, withStandardAt(650));
    await sync();
    const codes = await t.database.db
      .select({ code: storeDiscountCodes.code })
      .from(storeDiscountCodes)
      .where(eq(storeDiscountCodes.storeId, storeId));
    expect(codes).toEqual([{ code: 'LOCAL5' }]);
    expect((await ruleSources(t.database.db, storeId)).discounts).toBe('import');
    expect((await ratesInDatabase()).find((r) => r.id === 'std-ship')?.price).toBe(650);

    // What `store sync-rules` runs: the imported part goes back to the sync.
    const store = await requireStore(t.database.db, storeId);
    const taken = await syncStoreRules(t.database.db, store, { reclaim: true });
    expect(taken).toMatchObject({ synced: true, imported: [], written: { discounts: 2 } });
    expect((await ruleSources(t.database.db, storeId)).discounts).toBe('shopify');
    const back = await johnsCheckout('pot_ceramic', ['LOCAL5', '10OFF']);
    expect(back.discounts.applied.map((d: any) => d.code)).toEqual(['10OFF']);
  });
});
