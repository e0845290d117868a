import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { ucpIdempotency } from '../../db/schema';
import { startOrderReconciler } from '../../orders/reconciler';
import { captureLogs } from '../../testing/logs';
import { fastOrderSettings } from '../../testing/fixtures/orders';
import { checkoutRequest, payment, startTeaShop, type TeaShop } from './tea-shop';

fastOrderSettings();

let shop: TeaShop;
// Keys of this run only: a wire run's database outlives it.
const run = randomUUID().slice(0, 8);
const key = (k: string) => ({ 'Idempotency-Key': `${k}-${run}` });

beforeAll(async () => {
  shop = await startTeaShop();
  // A record past its two days, which the first keyed request of this process purges.
  await shop.t.database.db.insert(ucpIdempotency).values({
    owner: 'agent:https://old.example/agent.json',
    key: `old-${run}`,
    requestHash: 'x',
    responseStatus: 201,
    responseBody: {},
    createdAt: new Date(Date.now() - 3 * 24 * 60 * 60 * 1000),
  });
});
afterAll(async () => {
  await shop?.close();
});

async function create() {
  const res = await shop.ucp('POST', '/checkout-sessions', { body: checkoutRequest() });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; line_items: { id: string }[] };
}

function storeOrderPosts(): number {
  return shop.sim
    .requests(shop.domain)
    .filter((r) => r.method === 'POST' && r.path.endsWith('/orders.json')).length;
}

describe('Idempotency-Key', () => {
  it('replays create, update, complete and cancel, and refuses another body with 409 before validating it', async () => {
    const request = checkoutRequest();
    const first = await shop.ucp('POST', '/checkout-sessions', {
      body: request,
      headers: key('c-1'),
    });
    const old = await queryRows<{ n: number }>(
      shop.t.database.db,
      sql`SELECT count(*)::int AS n FROM ucp_idempotency WHERE key = ${`old-${run}`}`,
    );
    expect(old[0]!.n).toBe(0);
    const again = await shop.ucp('POST', '/checkout-sessions', {
      body: request,
      headers: key('c-1'),
    });
    expect([again.status, again.body]).toEqual([first.status, first.body]);
    const other = await shop.ucp('POST', '/checkout-sessions', {
      body: { ...request, currency: 'EUR', line_items: 'not even valid' },
      headers: key('c-1'),
    });
    expect([other.status, other.body.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);

    const id = first.body.id as string;
    const change = { discounts: { codes: ['TEN'] } };
    const u1 = await shop.ucp('PUT', `/checkout-sessions/${id}`, {
      body: change,
      headers: key('u-1'),
    });
    const u2 = await shop.ucp('PUT', `/checkout-sessions/${id}`, {
      body: change,
      headers: key('u-1'),
    });
    expect([u2.status, u2.body]).toEqual([200, u1.body]);
    const u3 = await shop.ucp('PUT', `/checkout-sessions/${id}`, {
      body: { discounts: { codes: ['HALF'] } },
      headers: key('u-1'),
    });
    expect(u3.status).toBe(409);

    const declined = await shop.ucp('POST', `/checkout-sessions/${id}/complete`, {
      body: payment('fail_token'),
      headers: key('p-1'),
    });
    const replayed = await shop.ucp('POST', `/checkout-sessions/${id}/complete`, {
      body: payment('fail_token'),
      headers: key('p-1'),
    });
    expect([replayed.status, replayed.body]).toEqual([402, declined.body]);
    const done = await shop.ucp('POST', `/checkout-sessions/${id}/complete`, {
      body: payment(),
      headers: key('p-2'),
    });
    const doneAgain = await shop.ucp('POST', `/checkout-sessions/${id}/complete`, {
      body: payment(),
      headers: key('p-2'),
    });
    expect([doneAgain.status, doneAgain.body]).toEqual([200, done.body]);
    const otherToken = await shop.ucp('POST', `/checkout-sessions/${id}/complete`, {
      body: payment('different_token'),
      headers: key('p-2'),
    });
    expect(otherToken.status).toBe(409);

    const second = await create();
    const k1 = await shop.ucp('POST', `/checkout-sessions/${second.id}/cancel`, {
      headers: key('k-1'),
    });
    const k2 = await shop.ucp('POST', `/checkout-sessions/${second.id}/cancel`, {
      headers: key('k-1'),
    });
    expect([k2.status, k2.body]).toEqual([200, k1.body]);
  });

  it('scopes keys to their caller', async () => {
    const mine = await shop.ucp('POST', '/checkout-sessions', {
      body: checkoutRequest(),
      headers: key('shared'),
    });
    const theirs = await shop.ucp('POST', '/checkout-sessions', {
      body: checkoutRequest('70011', 2),
      headers: key('shared'),
      agent: 'https://other.example/agent.json',
    });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
  });
});

describe('completion under load and faults', () => {
  it('places one order for concurrent completes of one checkout', async () => {
    const { id } = await create();
    const before = storeOrderPosts();
    shop.sim.inject({ kind: 'latency', delayMs: 200, match: { method: 'POST' } });
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        shop.ucp('POST', `/checkout-sessions/${id}/complete`, { body: payment() }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
    expect(storeOrderPosts() - before).toBe(1);
    const orders = await queryRows<{ n: number }>(
      shop.t.database.db,
      sql`SELECT count(*)::int AS n FROM orders WHERE checkout_id = ${id}`,
    );
    expect(orders[0]!.n).toBe(1);
  });

  it('keeps the checkout in progress while the store may hold an order it timed out on, then completes it', async () => {
    const { id } = await create();
    shop.sim.inject({ kind: 'latency', delayMs: 1500, match: { method: 'POST' } });
    const res = await shop.ucp('POST', `/checkout-sessions/${id}/complete`, { body: payment() });
    expect([res.status, res.body.code]).toEqual([503, 'ORDER_PENDING']);
    const during = await shop.ucp('GET', `/checkout-sessions/${id}`);
    expect(during.body.status).toBe('complete_in_progress');
    const retry = await shop.ucp('POST', `/checkout-sessions/${id}/complete`, { body: payment() });
    expect(retry.status).toBe(503);
    // The store made the order late; the reconciler's lookup finds it (run here by hand).
    await new Promise((r) => setTimeout(r, 1800));
    const reconciler = startOrderReconciler(shop.t.database.db, { intervalMs: 3_600_000 });
    await reconciler.runOnce();
    await reconciler.stop();
    const after = await shop.ucp('GET', `/checkout-sessions/${id}`);
    expect(after.body.status).toBe('completed');
    expect(after.body.order.id).toMatch(/^ord_/);
  });

  it('gives the checkout back when the store refuses the order', async () => {
    const { id } = await create();
    shop.sim.inject({ kind: 'status', status: 422, match: { method: 'POST' } });
    const res = await shop.ucp('POST', `/checkout-sessions/${id}/complete`, { body: payment() });
    expect([res.status, res.body.code]).toEqual([502, 'ORDER_FAILED']);
    const got = await shop.ucp('GET', `/checkout-sessions/${id}`);
    expect(got.body.status).toBe('ready_for_complete');
    const again = await shop.ucp('POST', `/checkout-sessions/${id}/complete`, { body: payment() });
    expect(again.status).toBe(200);
  });
});

describe('card data', () => {
  it('never reaches the database or the logs', async () => {
    const logs = captureLogs();
    try {
      const { id } = await create();
      const card = {
        payment_data: {
          id: 'instr_card',
          handler_id: 'mock_payment_handler',
          type: 'card',
          brand: 'Visa',
          last_digits: '4242',
          credential: {
            type: 'card',
            card_number_type: 'fpan',
            number: '4242424242424242',
            expiry_month: 12,
            expiry_year: 2030,
            cvc: '987',
          },
        },
        risk_signals: {},
      };
      await shop.ucp('PUT', `/checkout-sessions/${id}`, {
        body: {
          payment: { instruments: [card.payment_data], selected_instrument_id: 'instr_card' },
        },
        headers: key('card-put'),
      });
      const res = await shop.ucp('POST', `/checkout-sessions/${id}/complete`, {
        body: card,
        headers: key('card-1'),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain('4242424242424242');
      const dump = await queryRows<{ t: string }>(
        shop.t.database.db,
        sql`SELECT concat_ws(' ',
              (SELECT string_agg(c::text, ' ') FROM checkout_sessions c),
              (SELECT string_agg(i::text, ' ') FROM ucp_idempotency i),
              (SELECT string_agg(o::text, ' ') FROM orders o)) AS t`,
      );
      expect(dump[0]!.t).toContain(id);
      expect(dump[0]!.t).not.toContain('4242424242424242');
      expect(dump[0]!.t).not.toContain('"cvc"');
      const logged = JSON.stringify(logs.lines);
      expect(logged).not.toContain('4242424242424242');
    } finally {
      logs.restore();
    }
  });
});

describe('bad input on every UCP route', () => {
  it('answers 4xx in the UCP error shape, never 5xx', async () => {
    const { id } = await create();
    const bodies: unknown[] = [
      '{not json',
      '[]',
      '"text"',
      { line_items: [] },
      { line_items: [{ item: { id: '' }, quantity: 1 }], currency: 'USD' },
      { line_items: [{ item: { id: '7001' }, quantity: -1 }], currency: 'usd' },
      { line_items: [{ item: { id: '7001' }, quantity: 1e12 }], currency: 'USD' },
      { line_items: [{ item: { id: 'x\u0000y' }, quantity: 1 }], currency: 'USD' },
      { fulfillment: { methods: [{ type: 'drone' }] } },
      { fulfillment: { methods: 'all' } },
      { discounts: { codes: [1, 2] } },
      { payment_data: { id: 5 } },
      { payment_data: null },
      JSON.stringify({ a: Array.from({ length: 20_000 }, () => 1) }),
      `${'['.repeat(100)}${']'.repeat(100)}`,
    ];
    const routes: Array<[string, string]> = [
      ['POST', '/checkout-sessions'],
      ['PUT', `/checkout-sessions/${id}`],
      ['POST', `/checkout-sessions/${id}/complete`],
      ['POST', `/checkout-sessions/${id}/cancel`],
      ['PUT', '/checkout-sessions/chk_missing'],
    ];
    for (const [method, path] of routes) {
      for (const body of bodies) {
        const res = await shop.ucp(method, path, { body });
        const what = `${method} ${path} ${JSON.stringify(body).slice(0, 80)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
        expect(res.status, what).toBeLessThan(500);
        // Not every body is wrong for every route (an update may leave everything out).
        if (res.status >= 400) {
          expect(res.body, what).toMatchObject({
            detail: expect.any(String),
            code: expect.any(String),
          });
        } else {
          expect(typeof body === 'object' && body !== null, what).toBe(true);
        }
      }
    }
    for (const [method, path] of [
      ['GET', '/checkout-sessions/%E0%A4%A'],
      ['GET', `/checkout-sessions/${'x'.repeat(300)}`],
      ['GET', '/orders/ord_missing'],
      ['GET', '/checkout-sessions/chk_missing'],
    ] as const) {
      const res = await shop.ucp(method, path);
      expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
    }
    const badKey = await shop.ucp('POST', '/checkout-sessions', {
      body: checkoutRequest(),
      headers: { 'Idempotency-Key': 'has space' },
    });
    expect(badKey.status).toBe(400);
    const noType = await shop.ucp('POST', '/checkout-sessions', {
      body: JSON.stringify(checkoutRequest()),
      headers: { 'content-type': 'text/plain' },
    });
    expect(noType.status).toBe(400);
  });
});
