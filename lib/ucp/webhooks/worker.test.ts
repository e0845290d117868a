// @no-test-database
import { flattenedVerify, importJWK } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setEnv } from '../../testing/env';
import { openDatabase, type Database } from '../../db/client';
import { orders, ucpWebhookOutbox } from '../../db/schema';
import { waitFor } from '../../testing/wait-for';
import { fetchAgentProfile } from '../agent-profile';
import { publicSigningKeys } from '../signing-keys';
import {
  closedPort,
  startProfileServer,
  startWebhookReceiver,
  type Listening,
} from './agent-double';
import { enqueueOrderEvent, type OrderEvent } from './outbox';
import { retryDelayMs, startWebhookWorker, type WebhookWorker } from './worker';

// A database of its own: a worker claims every due event of its database, and in the wire run
// other suites share one.
let database: Database;
const cleanups: Array<() => Promise<void>> = [];
let sequence = 0;

beforeAll(async () => {
  setEnv({ UCP_AGENT_FETCH_ALLOW_HOSTS: '127.0.0.1' });
  database = await openDatabase({ url: 'memory://' });
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await database?.close();
  setEnv({ UCP_AGENT_FETCH_ALLOW_HOSTS: undefined });
});
beforeEach(async () => {
  await database.db.delete(ucpWebhookOutbox);
});

function track<T extends Listening | WebhookWorker>(thing: T): T {
  cleanups.push(() => ('close' in thing ? thing.close() : thing.stop()));
  return thing;
}

/**
 * An agent whose profile sends order events to `webhookUrl`, fetched once as a checkout's
 * requests would have; a fresh URL per test (cache).
 */
async function agentProfile(webhookUrl: string, fetched = true): Promise<string> {
  const server = track(await startProfileServer(webhookUrl));
  const url = `${server.origin}/profile-${++sequence}.json`;
  if (fetched) await fetchAgentProfile(url);
  return url;
}

function event(agentProfileUrl: string, n = 1): OrderEvent {
  return {
    storeId: 'sto_test',
    orderId: `ord_${sequence}_${n}`,
    eventType: 'order_placed',
    agentProfileUrl,
    checkoutId: `chk_${sequence}_${n}`,
    order: { id: `ord_${sequence}_${n}`, fulfillment: { events: [] } },
  };
}

const until = <T>(probe: () => T | Promise<T>, timeoutMs = 3_000) =>
  waitFor(probe, { timeoutMs, what: probe.toString() });

async function rows() {
  return database.db.select().from(ucpWebhookOutbox).orderBy(ucpWebhookOutbox.id);
}

describe('UCP webhook delivery', () => {
  it('sends an event at once, signed with the published key, as the suite reads it', async () => {
    const receiver = track(await startWebhookReceiver());
    const profile = await agentProfile(`${receiver.origin}/webhooks/order`);
    track(startWebhookWorker(database.db, { pollMs: 60_000 }));
    await enqueueOrderEvent(database.db, event(profile));
    await until(() => receiver.received.length === 1, 2_000);

    const [sent] = receiver.received;
    expect(sent!.payload).toEqual({
      event_type: 'order_placed',
      checkout_id: `chk_${sequence}_1`,
      order: { id: `ord_${sequence}_1`, fulfillment: { events: [] } },
      event_id: expect.stringMatching(/^evt_/),
      created_time: expect.any(String),
    });
    const [protectedHeader, , signature] = String(sent!.headers['request-signature']).split('.');
    const { kid } = JSON.parse(Buffer.from(protectedHeader!, 'base64url').toString());
    const jwk = (await publicSigningKeys()).find((k) => k.kid === kid)!;
    const verified = await flattenedVerify(
      { protected: protectedHeader!, payload: sent!.body, signature: signature! },
      await importJWK(jwk, 'ES256'),
    );
    expect(verified.protectedHeader).toMatchObject({ alg: 'ES256', b64: false });
    await until(async () => (await rows())[0]?.deliveredAt != null);
    expect(await rows()).toMatchObject([{ attempts: 1, lastError: null }]);
  });

  it('keeps an event the agent could not take across a restart, and the next worker delivers it', async () => {
    const port = await closedPort();
    const profile = await agentProfile(`http://127.0.0.1:${port}/hook`);
    const first = startWebhookWorker(database.db, { pollMs: 60_000, retryBaseMs: 300 });
    await enqueueOrderEvent(database.db, event(profile));
    await until(async () => (await rows())[0]?.lastError != null);
    await first.stop();
    const [failed] = await rows();
    expect(failed).toMatchObject({ attempts: 1, deliveredAt: null });
    expect(failed!.lastError).toMatch(/ECONNREFUSED|connect/i);

    const receiver = track(await startWebhookReceiver(port));
    track(startWebhookWorker(database.db, { pollMs: 100 }));
    await until(() => receiver.received.length === 1, 5_000);
    await until(async () => (await rows())[0]?.deliveredAt != null);
    expect(await rows()).toMatchObject([{ attempts: 2, lastError: null }]);
    expect(receiver.received).toHaveLength(1);
  });

  it('waits twice as long after each failure, up to a cap', async () => {
    expect([1, 2, 3, 4, 5, 10].map((n) => retryDelayMs(n, 1_000, 5_000))).toEqual([
      1_000, 2_000, 4_000, 5_000, 5_000, 5_000,
    ]);
    const receiver = track(await startWebhookReceiver());
    receiver.status = 503;
    const profile = await agentProfile(`${receiver.origin}/hook`);
    const worker = track(
      startWebhookWorker(database.db, { pollMs: 60_000, retryBaseMs: 4_000, retryMaxMs: 10_000 }),
    );
    await enqueueOrderEvent(database.db, event(profile));
    await until(async () => (await rows())[0]?.lastError === 'HTTP 503');
    const [first] = await rows();
    expect(first!.nextAttemptAt.getTime() - Date.now()).toBeLessThanOrEqual(4_000);
    // Each further attempt runs between two readings of the clock, so its wait lies between the
    // next attempt's time less each reading, however slowly the machine runs.
    const waits: Array<{ atLeast: number; atMost: number }> = [];
    for (let attempt = 2; attempt <= 4; attempt++) {
      // Due now, as if the wait had passed.
      await database.db.update(ucpWebhookOutbox).set({ nextAttemptAt: new Date(0) });
      const before = Date.now();
      await worker.runOnce();
      const after = Date.now();
      const next = (await rows())[0]!.nextAttemptAt.getTime();
      waits.push({ atLeast: next - after - 1, atMost: next - before + 1 });
    }
    [8_000, 10_000, 10_000].forEach((wait, i) => {
      expect(wait).toBeGreaterThanOrEqual(waits[i]!.atLeast);
      expect(wait).toBeLessThanOrEqual(waits[i]!.atMost);
    });
    expect((await rows())[0]!.attempts).toBe(4);
    expect(receiver.received).toHaveLength(4);
  });

  it('lets two workers on one database deliver each event once', async () => {
    const receiver = track(await startWebhookReceiver());
    const profile = await agentProfile(`${receiver.origin}/hook`);
    const quiet = { pollMs: 60_000 };
    const a = startWebhookWorker(database.db, quiet);
    const b = startWebhookWorker(database.db, quiet);
    // Recorded without a nudge reaching either worker's timer first.
    await a.stop();
    await b.stop();
    for (let n = 1; n <= 30; n++) await enqueueOrderEvent(database.db, event(profile, n));
    const claimed = await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
    expect(claimed.reduce((x, y) => x + y, 0)).toBe(30);
    const orders = receiver.received.map((r) => r.payload.order.id);
    expect(new Set(orders).size).toBe(30);
    expect(orders).toHaveLength(30);
    expect((await rows()).every((r) => r.deliveredAt && r.attempts === 1)).toBe(true);
  });

  it('records no event for a developer’s order or an agent without a webhook', async () => {
    await enqueueOrderEvent(database.db, { ...event('unused'), agentProfileUrl: null });
    await enqueueOrderEvent(database.db, event(await agentProfile('')));
    expect(await rows()).toEqual([]);
  });

  it('reads an agent profile it did not have at delivery, from the order’s agent', async () => {
    const receiver = track(await startWebhookReceiver());
    const profile = await agentProfile(`${receiver.origin}/hook`, false);
    const placed = event(profile);
    await database.db.insert(orders).values({
      id: placed.orderId,
      storeId: placed.storeId,
      source: 'ucp',
      agentProfile: profile,
      requestHash: 'test',
      lines: [],
      shipping: {},
    });
    track(startWebhookWorker(database.db, { pollMs: 100 }));
    await enqueueOrderEvent(database.db, placed);
    await until(() => receiver.received.length === 1);
    expect(receiver.received[0]!.payload.order.id).toBe(placed.orderId);
    await until(async () => (await rows())[0]?.deliveredAt != null);
    expect((await rows())[0]!.url).toBe(`${receiver.origin}/hook`);
  });

  it('records an event whose agent profile cannot be fetched now without a URL, for delivery to resolve', async () => {
    const port = await closedPort();
    await enqueueOrderEvent(database.db, event(`http://127.0.0.1:${port}/profile.json`));
    expect(await rows()).toMatchObject([{ url: null, attempts: 0, deliveredAt: null }]);
  });
});
