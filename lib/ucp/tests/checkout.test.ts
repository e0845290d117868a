import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, variants } from '../../db/schema';
import { fastOrderSettings } from '../../testing/fixtures/orders';
import { ucpCheckoutSchemas, ucpOrderSchema } from '../schemas';
import { AGENT, checkoutRequest, payment, startTeaShop, type TeaShop } from './tea-shop';

fastOrderSettings();

let shop: TeaShop;

beforeAll(async () => {
  shop = await startTeaShop();
});
afterAll(async () => {
  await shop?.close();
});

/** The answer satisfies the spec's checkout schema with each extension we implement. */
function expectSpecCheckout(body: unknown) {
  for (const [name, schema] of Object.entries(ucpCheckoutSchemas)) {
    const parsed = schema.safeParse(body);
    expect(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
  }
}

/** The green tea's stock as the service keeps it. */
async function teaStock(): Promise<number | null> {
  const [row] = await shop.t.database.db
    .select({ stock: variants.inventoryQuantity })
    .from(variants)
    .where(and(eq(variants.storeId, shop.storeId), eq(variants.externalId, '70011')));
  return row!.stock;
}

const total = (body: any, type = 'total') =>
  body.totals.find((t: { type: string }) => t.type === type)?.amount;

async function create(request = checkoutRequest(), headers: Record<string, string> = {}) {
  const res = await shop.ucp('POST', '/checkout-sessions', { body: request, headers });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

function update(id: string, body: unknown, headers: Record<string, string> = {}) {
  return shop.ucp('PUT', `/checkout-sessions/${id}`, { body, headers });
}

describe('discovery', () => {
  it('answers the business profile with this base as the REST endpoint', async () => {
    const res = await shop.ucp('GET', '/.well-known/ucp', { agent: null });
    expect(res.status).toBe(200);
    expect(res.body.ucp.version).toBe('2026-01-11');
    const service = res.body.ucp.services['dev.ucp.shopping'];
    expect(service.rest.endpoint).toBe(`${shop.t.baseUrl}/ucp/${shop.storeId}`);
    expect(res.body.ucp.capabilities.map((c: { name: string }) => c.name)).toEqual([
      'dev.ucp.shopping.checkout',
      'dev.ucp.shopping.order',
      'dev.ucp.shopping.discount',
      'dev.ucp.shopping.fulfillment',
      'dev.ucp.shopping.buyer_consent',
    ]);
    expect(res.body.payment.handlers.map((h: { id: string }) => h.id)).toEqual([
      'mock_payment_handler',
      'google_pay',
    ]);
    expect(res.body.signing_keys[0]).toMatchObject({ kty: 'EC', kid: expect.any(String) });
    expect(res.body.signing_keys[0]).not.toHaveProperty('d');
  });

  it('knows no unknown or unverified store', async () => {
    const res = await fetch(`${shop.t.baseUrl}/ucp/store_nope/.well-known/ucp`);
    expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([
      404,
      'RESOURCE_NOT_FOUND',
    ]);
  });

  it('refuses a UCP-Agent version newer than ours, and a malformed header', async () => {
    const newer = await shop.ucp('POST', '/checkout-sessions', {
      body: checkoutRequest(),
      headers: { 'UCP-Agent': `profile="${AGENT}"; version="2099-01-01"` },
    });
    expect([newer.status, newer.body.code]).toEqual([400, 'VERSION_UNSUPPORTED']);
    const same = await shop.ucp('POST', '/checkout-sessions', {
      body: checkoutRequest(),
      headers: { 'UCP-Agent': `profile="${AGENT}"; version="2026-01-11"` },
    });
    expect(same.status).toBe(201);
    const bad = await shop.ucp('GET', '/checkout-sessions/x', {
      headers: { 'UCP-Agent': 'profile="unterminated' },
    });
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_UCP_AGENT']);
  });
});

describe('creating and reading', () => {
  it('prices from the catalogue whatever the client sends, in minor units', async () => {
    const body = await create(checkoutRequest('7001', 2));
    expect(body.status).toBe('ready_for_complete');
    expect(body.line_items[0].item).toEqual({ id: '7001', title: 'Green Tea Tin', price: 1250 });
    expect(body.line_items[0].totals).toEqual([
      { type: 'subtotal', amount: 2500 },
      { type: 'total', amount: 2500 },
    ]);
    expect(body.totals).toEqual([
      { type: 'subtotal', amount: 2500 },
      { type: 'fulfillment', amount: 600 },
      { type: 'total', amount: 3100 },
    ]);
    const got = await shop.ucp('GET', `/checkout-sessions/${body.id}`);
    expect(got.body).toEqual(body);
  });

  it('has no shipping line before an option is chosen', async () => {
    const body = await create({ ...checkoutRequest('70011'), fulfillment: undefined });
    expect(body.status).toBe('incomplete');
    expect(body.totals).toEqual([
      { type: 'subtotal', amount: 1250 },
      { type: 'total', amount: 1250 },
    ]);
    expect(body).not.toHaveProperty('fulfillment');
  });

  it('refuses unknown items, too much of an item, and a product of several variants', async () => {
    const unknown = await shop.ucp('POST', '/checkout-sessions', {
      body: checkoutRequest('pink_wumpus'),
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toMatch(/not found/);
    const tooMany = await shop.ucp('POST', '/checkout-sessions', {
      body: checkoutRequest('70021', 6),
    });
    expect([tooMany.status, tooMany.body.detail]).toEqual([
      400,
      'Insufficient stock for item 70021',
    ]);
    const soldOut = await shop.ucp('POST', '/checkout-sessions', { body: checkoutRequest('7003') });
    expect(soldOut.body.detail).toMatch(/Insufficient stock/);
    const ambiguous = await shop.ucp('POST', '/checkout-sessions', {
      body: checkoutRequest('7002'),
    });
    expect([ambiguous.status, ambiguous.body.code]).toEqual([400, 'AMBIGUOUS_ITEM']);
  });

  it("answers 404 for another caller's checkout", async () => {
    const body = await create();
    const other = await shop.ucp('GET', `/checkout-sessions/${body.id}`, {
      agent: 'https://other.example/agent.json',
    });
    expect(other.status).toBe(404);
    const dev = await shop.t.newDeveloper();
    const withKey = await shop.ucp('GET', `/checkout-sessions/${body.id}`, {
      headers: { 'X-API-Key': dev.key },
    });
    expect(withKey.status).toBe(404);
    const keyless = await shop.ucp('GET', `/checkout-sessions/${body.id}`, { agent: null });
    expect([keyless.status, keyless.body.code]).toEqual([401, 'AUTH_MISSING']);
  });
});

describe('updating: discounts and fulfillment', () => {
  it('applies codes one after another with truncation, leaving an unknown one out', async () => {
    const body = await create(checkoutRequest('7001', 3));
    const res = await update(body.id, { discounts: { codes: ['TEN', 'NOPE', 'HALF'] } });
    expect(res.status).toBe(200);
    // 3750 - 375 = 3375; half of it truncated: 1687; shipping 600 on top.
    expect(res.body.discounts.applied.map((d: any) => [d.code, d.amount])).toEqual([
      ['TEN', 375],
      ['HALF', 1687],
    ]);
    expect(total(res.body, 'discount')).toBe(2062);
    expect(total(res.body)).toBe(3750 - 2062 + 600);
    expectSpecCheckout(res.body);
    expect(res.body.messages).toEqual([
      expect.objectContaining({
        type: 'warning',
        code: 'discount_code_invalid',
        path: '$.discounts.codes[1]',
      }),
    ]);
  });

  it('matches codes whatever their case, as the spec asks, and counts a code once in two spellings', async () => {
    const body = await create(checkoutRequest('7001', 3));
    const res = await update(body.id, { discounts: { codes: ['ten', 'TEN'] } });
    expect(res.status).toBe(200);
    expect(res.body.discounts.codes).toEqual(['ten', 'TEN']);
    expect(res.body.discounts.applied.map((d: any) => [d.code, d.amount])).toEqual([['ten', 375]]);
    expect(total(res.body)).toBe(3750 - 375 + 600);
    expectSpecCheckout(res.body);
  });

  it('warns of a code asked again in another spelling, or left nothing to take off by the codes before it', async () => {
    const body = await create(checkoutRequest('7001', 1));
    const res = await update(body.id, {
      discounts: { codes: ['SHIPFREE', 'shipfree', 'SHIPALSO', 'TEN'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.discounts.applied.map((d: any) => [d.code, d.amount])).toEqual([
      ['SHIPFREE', 600],
      ['TEN', 125],
    ]);
    expect(total(res.body)).toBe(1250 - 125);
    expect(res.body.messages.map((m: any) => [m.type, m.code, m.path])).toEqual([
      ['warning', 'discount_code_already_applied', '$.discounts.codes[1]'],
      ['warning', 'discount_code_combination_disallowed', '$.discounts.codes[2]'],
    ]);
    expect(res.body.messages[1].content).toBe(
      'Discount code SHIPALSO takes nothing off after SHIPFREE',
    );
    expectSpecCheckout(res.body);
    // With no shipping option chosen yet, a free-shipping code waits, unwarned.
    const waiting = await create({
      ...checkoutRequest('7001', 1),
      fulfillment: undefined,
      discounts: { codes: ['SHIPFREE'] },
    });
    expect(waiting.discounts).toEqual({ codes: ['SHIPFREE'], applied: [] });
    expect(waiting.messages).toEqual([]);
  });

  it("offers a known buyer's saved addresses, null for an unknown one, and keeps them across updates", async () => {
    const known = await create({
      ...checkoutRequest(),
      fulfillment: undefined,
      buyer: {
        email: 'ADA@example.com',
        first_name: 'Ada',
        consent: { marketing: true, analytics: false },
      },
    });
    const offered = await update(known.id, { fulfillment: { methods: [{ type: 'shipping' }] } });
    const method = offered.body.fulfillment.methods[0];
    expect(method.destinations.map((d: any) => d.id)).toEqual(['a1', 'a2']);
    expect(offered.body.buyer.consent).toEqual({ marketing: true, analytics: false });
    const chosen = await update(known.id, {
      fulfillment: { methods: [{ type: 'shipping', selected_destination_id: 'a2' }] },
    });
    const options = chosen.body.fulfillment.methods[0].groups[0].options;
    // Canada's own express rate replaces the default one.
    expect(options.map((o: any) => [o.id, o.totals[1].amount])).toEqual([
      ['ground', 600],
      ['air-ca', 1800],
    ]);
    expect(chosen.body.buyer.email).toBe('ADA@example.com');
    expectSpecCheckout(chosen.body);
    const unknown = await create({
      ...checkoutRequest(),
      fulfillment: undefined,
      buyer: { email: 'nobody@example.com' },
    });
    const none = await update(unknown.id, { fulfillment: { methods: [{ type: 'shipping' }] } });
    expect(none.body.fulfillment.methods[0].destinations).toBeNull();
  });

  it('keeps a new address for the next checkout, and reuses the id of one already saved', async () => {
    const email = `new-${Date.now()}@example.com`;
    const first = await create({ ...checkoutRequest(), fulfillment: undefined, buyer: { email } });
    const address = {
      street_address: '9 Kettle Rd',
      address_locality: 'York',
      address_region: 'YK',
      postal_code: 'YO1 1AA',
      address_country: 'GB',
    };
    const saved = await update(first.id, {
      fulfillment: { methods: [{ type: 'shipping', destinations: [address] }] },
    });
    const id = saved.body.fulfillment.methods[0].destinations[0].id;
    expect(id).toMatch(/^addr_/);
    const second = await create({ ...checkoutRequest(), fulfillment: undefined, buyer: { email } });
    const offered = await update(second.id, { fulfillment: { methods: [{ type: 'shipping' }] } });
    expect(offered.body.fulfillment.methods[0].destinations.map((d: any) => d.id)).toEqual([id]);
    const again = await update(second.id, {
      fulfillment: { methods: [{ type: 'shipping', destinations: [address] }] },
    });
    expect(again.body.fulfillment.methods[0].destinations[0].id).toBe(id);
  });

  it('ships free over the order minimum and with an eligible item', async () => {
    const small = await create(checkoutRequest('7001', 1));
    expect(total(small, 'fulfillment')).toBe(600);
    const big = await update(small.id, {
      line_items: [{ id: small.line_items[0].id, item: { id: '7001' }, quantity: 5 }],
    });
    const ground = big.body.fulfillment.methods[0].groups[0].options.find(
      (o: any) => o.id === 'ground',
    );
    expect([ground.title, ground.totals[1].amount]).toEqual(['Ground (Free)', 0]);
    expect(total(big.body)).toBe(6250);
    const red = await create(checkoutRequest('70022', 1));
    expect(total(red, 'fulfillment')).toBe(0);
  });
});

describe('completing', () => {
  it('takes the payment, places the order at the store with its prices, and answers the order', async () => {
    const stockBefore = await teaStock();
    const body = await create({
      ...checkoutRequest('7001', 2),
      buyer: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
      discounts: { codes: ['TWO'] },
    });
    const res = await shop.ucp('POST', `/checkout-sessions/${body.id}/complete`, {
      body: payment(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('completed');
    expectSpecCheckout(res.body);
    expect(await teaStock()).toBe(stockBefore! - 2);
    const orderId = res.body.order.id;
    expect(res.body.order.permalink_url).toBe(
      `${shop.t.baseUrl}/ucp/${shop.storeId}/orders/${orderId}`,
    );
    const placed = shop.sim.orders(shop.domain);
    const storeOrder = placed.find((o: any) => JSON.stringify(o).includes(orderId)) as any;
    expect(storeOrder.line_items.map((l: any) => [String(l.variant_id), l.quantity])).toEqual([
      ['70011', 2],
    ]);
    const order = await shop.ucp('GET', `/orders/${orderId}`);
    expect(order.status).toBe(200);
    expect(order.body).toMatchObject({
      id: orderId,
      checkout_id: body.id,
      line_items: [
        {
          item: { id: '7001', price: 1250 },
          quantity: { total: 2, fulfilled: 0 },
          status: 'processing',
        },
      ],
      fulfillment: {
        expectations: [{ method_type: 'shipping', description: 'Ground' }],
        events: [],
      },
      adjustments: [],
    });
    expect(total(order.body)).toBe(2500 - 200 + 600);
    const parsedOrder = ucpOrderSchema.safeParse(order.body);
    expect(parsedOrder.success, JSON.stringify(parsedOrder.error?.issues)).toBe(true);
    const row = await shop.t.database.db.query.orders.findFirst({
      where: (o, { eq }) => eq(o.id, orderId),
    });
    expect(row).toMatchObject({
      source: 'ucp',
      checkoutId: body.id,
      agentProfile: AGENT,
      developerId: null,
      status: 'created',
      totalPrice: '29.00',
    });
    const again = await shop.ucp('POST', `/checkout-sessions/${body.id}/complete`, {
      body: payment(),
    });
    expect([again.status, again.body.code]).toEqual([409, 'CHECKOUT_NOT_MODIFIABLE']);
    for (const [method, path, req] of [
      ['PUT', `/checkout-sessions/${body.id}`, { discounts: { codes: [] } }],
      ['POST', `/checkout-sessions/${body.id}/cancel`, undefined],
    ] as const) {
      const refused = await shop.ucp(method, path, { body: req });
      expect(refused.status).toBe(409);
    }
    const otherAgent = await shop.ucp('GET', `/orders/${orderId}`, {
      agent: 'https://other.example/a.json',
    });
    expect(otherAgent.status).toBe(404);
  });

  it('refuses to complete without fulfillment, with a declined payment, or a handler without processor', async () => {
    const bare = await create({ ...checkoutRequest(), fulfillment: undefined });
    const unfulfilled = await shop.ucp('POST', `/checkout-sessions/${bare.id}/complete`, {
      body: payment(),
    });
    expect(unfulfilled.status).toBe(400);
    expect(unfulfilled.body.detail).toBe(
      'Fulfillment address and option must be selected before completion.',
    );
    const body = await create();
    const declined = await shop.ucp('POST', `/checkout-sessions/${body.id}/complete`, {
      body: payment('fail_token'),
    });
    expect([declined.status, declined.body.code]).toEqual([402, 'INSUFFICIENT_FUNDS']);
    const gpay = await shop.ucp('POST', `/checkout-sessions/${body.id}/complete`, {
      body: payment('tok', 'google_pay'),
    });
    expect([gpay.status, gpay.body.code]).toEqual([400, 'PAYMENT_HANDLER_UNAVAILABLE']);
    const shopPay = await shop.ucp('POST', `/checkout-sessions/${body.id}/complete`, {
      body: payment('tok', 'shop_pay'),
    });
    expect([shopPay.status, shopPay.body.code]).toEqual([400, 'PAYMENT_HANDLER_NOT_ACCEPTED']);
    const got = await shop.ucp('GET', `/checkout-sessions/${body.id}`);
    expect(got.body.status).toBe('ready_for_complete');
  });

  it('refuses to change or complete an expired checkout, which can still be canceled', async () => {
    const body = await create();
    await shop.t.database.db
      .update(checkoutSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(checkoutSessions.id, body.id));
    const changed = await update(body.id, { discounts: { codes: ['TEN'] } });
    expect([changed.status, changed.body.code]).toEqual([409, 'CHECKOUT_EXPIRED']);
    const complete = await shop.ucp('POST', `/checkout-sessions/${body.id}/complete`, {
      body: payment(),
    });
    expect(complete.status).toBe(409);
    const canceled = await shop.ucp('POST', `/checkout-sessions/${body.id}/cancel`);
    expect(canceled.status).toBe(200);
  });

  it('cancels a checkout once, and nothing changes it afterwards', async () => {
    const body = await create();
    const canceled = await shop.ucp('POST', `/checkout-sessions/${body.id}/cancel`);
    expect([canceled.status, canceled.body.status]).toEqual([200, 'canceled']);
    const again = await shop.ucp('POST', `/checkout-sessions/${body.id}/cancel`);
    expect(again.status).toBe(409);
    const complete = await shop.ucp('POST', `/checkout-sessions/${body.id}/complete`, {
      body: payment(),
    });
    expect(complete.status).toBe(409);
  });
});
