import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setEnv } from '../../testing/env';
import { fastOrderSettings } from '../../testing/fixtures/orders';
import { waitFor } from '../../testing/wait-for';
import { checkoutRequest, payment, startTeaShop, type TeaShop } from '../tests/tea-shop';
import {
  startProfileServer,
  startWebhookReceiver,
  type Listening,
  type ReceivedWebhook,
} from '../webhooks/agent-double';
import { startWebhookWorker, type WebhookWorker } from '../webhooks/worker';

fastOrderSettings();

const SECRET = 'simulation-secret-for-tests';
let shop: TeaShop;
let receiver: Listening & { received: ReceivedWebhook[] };
let profiles: Listening;
let worker: WebhookWorker;
/** This file's agent: its profile names `receiver` as its order webhook. */
let agent: string;

beforeAll(async () => {
  setEnv({ UCP_AGENT_FETCH_ALLOW_HOSTS: '127.0.0.1' });
  shop = await startTeaShop();
  receiver = await startWebhookReceiver();
  profiles = await startProfileServer(`${receiver.origin}/webhooks/order`);
  agent = `${profiles.origin}/agent-${randomUUID()}.json`;
  worker = startWebhookWorker(shop.t.database.db, { pollMs: 200 });
});
afterAll(async () => {
  await worker?.stop();
  await profiles?.close();
  await receiver?.close();
  await shop?.close();
  setEnv({ UCP_AGENT_FETCH_ALLOW_HOSTS: undefined, UCP_SIMULATION_SECRET: undefined });
});
beforeEach(() => {
  setEnv({ UCP_SIMULATION_SECRET: SECRET });
});

const until = <T>(probe: () => T | Promise<T>, timeoutMs = 3_000) =>
  waitFor(probe, { timeoutMs, what: probe.toString() });

/** A completed checkout's order of one blue teapot and two green tea tins, by this file's agent. */
async function placeOrder(): Promise<{ orderId: string; checkoutId: string }> {
  const request = checkoutRequest('70021', 1);
  (request.line_items as unknown[]).push({ item: { id: '7001' }, quantity: 2 });
  const created = await shop.ucp('POST', '/checkout-sessions', { body: request, agent });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const done = await shop.ucp('POST', `/checkout-sessions/${created.body.id}/complete`, {
    body: payment(),
    agent,
  });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return { orderId: done.body.order.id, checkoutId: created.body.id };
}

function ship(orderId: string, secret?: string) {
  return shop.ucp('POST', `/testing/simulate-shipping/${orderId}`, {
    agent,
    headers: secret === undefined ? {} : { 'Simulation-Secret': secret },
  });
}

describe('simulate-shipping', () => {
  it('exists only with UCP_SIMULATION_SECRET, and only for its holder', async () => {
    const { orderId } = await placeOrder();
    setEnv({ UCP_SIMULATION_SECRET: undefined });
    expect((await ship(orderId, SECRET)).status).toBe(404);
    setEnv({ UCP_SIMULATION_SECRET: SECRET });
    expect([(await ship(orderId)).status, (await ship(orderId, 'wrong')).status]).toEqual([
      403, 403,
    ]);
    expect((await ship('ord_unknown', SECRET)).status).toBe(404);
    expect(shop.sim.orders(shop.domain).at(-1)?.fulfillment_status).toBeNull();
  });

  it('has the store ship the order, records the shipment once and tells the agent', async () => {
    const { orderId, checkoutId } = await placeOrder();
    const shipped = await ship(orderId, SECRET);
    expect(shipped.status, JSON.stringify(shipped.body)).toBe(200);
    const platformOrder = shop.sim.orders(shop.domain).at(-1)!;
    expect(platformOrder.fulfillment_status).toBe('fulfilled');

    const order = (await shop.ucp('GET', `/orders/${orderId}`, { agent })).body;
    expect(order.fulfillment.events).toEqual([
      {
        id: expect.stringMatching(/^shp_/),
        occurred_at: expect.any(String),
        type: 'shipped',
        line_items: order.line_items.map((l: { id: string; quantity: { total: number } }) => ({
          id: l.id,
          quantity: l.quantity.total,
        })),
        tracking_number: `SIM-${platformOrder.id}`,
        carrier: 'Simulated carrier',
      },
    ]);
    expect(order.line_items.map((l: { status: string }) => l.status)).toEqual([
      'fulfilled',
      'fulfilled',
    ]);
    expect(shipped.body.order).toEqual(order);

    // Shipping again finds nothing new: no second event, no second webhook.
    expect((await ship(orderId, SECRET)).status).toBe(200);
    const again = (await shop.ucp('GET', `/orders/${orderId}`, { agent })).body;
    expect(again.fulfillment.events).toHaveLength(1);

    const events = () => receiver.received.filter((r) => r.payload.order.id === orderId);
    await until(() => events().length >= 2);
    expect(events().map((e) => [e.payload.event_type, e.payload.checkout_id])).toEqual([
      ['order_placed', checkoutId],
      ['order_shipped', checkoutId],
    ]);
    expect(events()[0]!.payload.order.fulfillment).toMatchObject({ events: [] });
    expect(events()[1]!.payload.order).toEqual(order);
    expect(events()[1]!.headers['request-signature']).toMatch(/^[\w-]+\.\.[\w-]+$/);
  });
});

describe('PUT orders/{id}', () => {
  const adjustment = {
    id: 'adj_1',
    type: 'refund',
    occurred_at: '2026-11-28T10:00:00Z',
    status: 'pending',
    amount: 500,
    description: 'Customer refund request',
  };

  it('appends new fulfillment events and adjustments, once each', async () => {
    const { orderId } = await placeOrder();
    const order = (await shop.ucp('GET', `/orders/${orderId}`, { agent })).body;
    const event = {
      id: 'evt_1',
      occurred_at: '2026-11-28T09:00:00Z',
      type: 'shipped',
      line_items: [{ id: order.line_items[0].id, quantity: 1 }],
      tracking_number: 'TRACK123',
      tracking_url: 'http://track.me/123',
    };
    const sent = {
      ...order,
      fulfillment: { ...order.fulfillment, events: [event] },
      adjustments: [adjustment],
      totals: [{ type: 'total', amount: 1 }],
    };
    const put = await shop.ucp('PUT', `/orders/${orderId}`, { body: sent, agent });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.fulfillment.events).toEqual([event]);
    expect(put.body.adjustments).toEqual([adjustment]);
    expect(put.body.totals).toEqual(order.totals);

    const changed = { ...adjustment, status: 'completed' };
    const twice = await shop.ucp('PUT', `/orders/${orderId}`, {
      body: { ...sent, adjustments: [changed, { ...adjustment, id: 'adj_2' }] },
      agent,
    });
    expect(twice.body.adjustments.map((a: { id: string; status: string }) => a.status)).toEqual([
      'pending',
      'pending',
    ]);
    expect(twice.body.fulfillment.events).toHaveLength(1);
    expect((await shop.ucp('GET', `/orders/${orderId}`, { agent })).body).toEqual(twice.body);
  });

  it('refuses an invalid adjustment or event with 422 and changes nothing', async () => {
    const { orderId } = await placeOrder();
    const order = (await shop.ucp('GET', `/orders/${orderId}`, { agent })).body;
    const lineId = order.line_items[0].id;
    for (const bad of [
      { adjustments: [{ ...adjustment, status: 'done' }] },
      { adjustments: [{ ...adjustment, occurred_at: 'yesterday' }] },
      { adjustments: [{ ...adjustment, amount: 5.5 }] },
      { adjustments: [{ id: 'adj_x' }] },
      { adjustments: [{ ...adjustment, line_items: [{ id: lineId, quantity: 99 }] }] },
      { adjustments: [adjustment, { ...adjustment, id: 'adj_y', type: '' }] },
      { fulfillment: { events: [{ id: 'evt_x', type: 'shipped', occurred_at: 'now' }] } },
      {
        fulfillment: {
          events: [
            {
              id: 'evt_y',
              type: 'shipped',
              occurred_at: adjustment.occurred_at,
              line_items: [{ id: 'li_nope', quantity: 1 }],
            },
          ],
        },
      },
    ]) {
      const res = await shop.ucp('PUT', `/orders/${orderId}`, { body: bad, agent });
      expect([res.status, res.body.code], JSON.stringify(bad)).toEqual([422, 'INVALID_REQUEST']);
    }
    const badShape = await shop.ucp('PUT', `/orders/${orderId}`, {
      body: { adjustments: { id: 'adj_1', amount: 100 } },
      agent,
    });
    expect(badShape.status).toBe(422);
    const otherOrder = await shop.ucp('PUT', `/orders/${orderId}`, {
      body: { id: 'ord_other' },
      agent,
    });
    expect(otherOrder.status).toBe(400);
    expect((await shop.ucp('GET', `/orders/${orderId}`, { agent })).body).toEqual(order);
  });

  it('is not found for another caller', async () => {
    const { orderId } = await placeOrder();
    const res = await shop.ucp('PUT', `/orders/${orderId}`, {
      body: { adjustments: [adjustment] },
      agent: 'https://another-agent.example/profile.json',
    });
    expect(res.status).toBe(404);
  });
});
