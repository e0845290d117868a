import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders, ucpWebhookOutbox } from '../../db/schema';
import { logger } from '../../log/logger';
import { guardedRequest } from '../../net/guarded-request';
import { agentFetchAllowHosts, fetchAgentProfile, orderWebhookUrl } from '../agent-profile';
import { SIGNATURE_HEADER, signWebhook } from '../signing-keys';
import { onWebhookNudge } from './nudge';

/**
 * Delivers the webhook outbox: claims due events, POSTs each signed to its agent's URL (through
 * the same address policy as agent profiles), marks it delivered on a 2xx and otherwise tries
 * again after a backoff that doubles up to a cap, for as long as it takes (order.md: businesses
 * MUST retry). Its state is the table: a claim moves the event's next attempt a lease ahead, so
 * replicas running workers on one database never send an event twice at once, and an event whose
 * worker died is due again when the lease lapses. Nothing is lost across a restart.
 */

export interface WebhookWorkerOptions {
  /** How often the table is read for due events when nothing nudged the worker. */
  pollMs?: number;
  /** First wait after a failed delivery; it doubles with each failure. */
  retryBaseMs?: number;
  /** Longest wait between two tries. */
  retryMaxMs?: number;
  /** Deadline of one delivery; the claim lasts longer. */
  timeoutMs?: number;
}

export interface WebhookWorker {
  /** One pass: claims due events and delivers them; returns how many it claimed. */
  runOnce(): Promise<number>;
  /** Looks for due events now (an event was just recorded). */
  nudge(): void;
  /** Finishes the deliveries in hand and stops. */
  stop(): Promise<void>;
}

const DEFAULTS = {
  pollMs: 1_000,
  retryBaseMs: 2_000,
  retryMaxMs: 3_600_000,
  timeoutMs: 5_000,
} satisfies Required<WebhookWorkerOptions>;
const BATCH = 20;
/** A nudge may come before the enqueuing transaction commits: look again a few times. */
const NUDGE_LOOKS = 10;
const NUDGE_INTERVAL_MS = 50;
const MAX_RESPONSE_BYTES = 64 * 1024;

/** The wait before the next try of an event that failed `attempts` times. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(attempts - 1, 0), maxMs);
}

const ms = (n: number) => sql`(${n} * interval '1 millisecond')`;
const due = () =>
  and(isNull(ucpWebhookOutbox.deliveredAt), lte(ucpWebhookOutbox.nextAttemptAt, sql`now()`));

type OutboxRow = typeof ucpWebhookOutbox.$inferSelect;

/**
 * Claims up to `limit` due events; `FOR UPDATE SKIP LOCKED` lets replicas claim disjoint ones,
 * and the repeated condition keeps out an event another worker claimed meanwhile.
 */
async function claimDue(db: Db, limit: number, leaseMs: number): Promise<OutboxRow[]> {
  const candidates = db
    .select({ id: ucpWebhookOutbox.id })
    .from(ucpWebhookOutbox)
    .where(due())
    .orderBy(asc(ucpWebhookOutbox.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(ucpWebhookOutbox)
    .set({
      nextAttemptAt: sql`now() + ${ms(leaseMs)}`,
      attempts: sql`${ucpWebhookOutbox.attempts} + 1`,
    })
    .where(and(inArray(ucpWebhookOutbox.id, candidates), due()))
    .returning();
}

/**
 * The URL of an event recorded while its agent's profile could not be fetched: the profile of
 * the agent that placed the order, read now. Null when the profile names no webhook: the event
 * has nowhere to go.
 */
async function resolveUrl(db: Db, row: OutboxRow): Promise<string | null> {
  const [order] = await db
    .select({ agentProfile: orders.agentProfile })
    .from(orders)
    .where(eq(orders.id, row.orderId));
  const profile = order?.agentProfile ? await fetchAgentProfile(order.agentProfile) : null;
  if (order?.agentProfile && !profile) throw new Error('the agent profile could not be fetched');
  const url = orderWebhookUrl(profile);
  if (url) await db.update(ucpWebhookOutbox).set({ url }).where(eq(ucpWebhookOutbox.id, row.id));
  return url;
}

/** Sends one event; undefined when the agent took it (or it has nowhere to go), else why not. */
async function send(db: Db, row: OutboxRow, timeoutMs: number): Promise<string | undefined> {
  const body = JSON.stringify(row.payload);
  try {
    const url = row.url ?? (await resolveUrl(db, row));
    if (!url) return undefined;
    const res = await guardedRequest({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: await signWebhook(body),
        'user-agent': 'commerce-search-ucp/1',
      },
      body,
      allowHosts: agentFetchAllowHosts(),
      timeoutMs,
      maxBytes: MAX_RESPONSE_BYTES,
    });
    return res.status >= 200 && res.status < 300 ? undefined : `HTTP ${res.status}`;
  } catch (err) {
    return (err as Error).message;
  }
}

export function startWebhookWorker(db: Db, opts: WebhookWorkerOptions = {}): WebhookWorker {
  const o = { ...DEFAULTS, ...opts };
  // The claim outlasts the delivery's deadline and its bookkeeping.
  const leaseMs = o.timeoutMs * 2 + 10_000;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<number> | undefined;
  let looksLeft = 0;

  async function deliver(row: OutboxRow): Promise<void> {
    const failure = await send(db, row, o.timeoutMs);
    const mine = and(eq(ucpWebhookOutbox.id, row.id), isNull(ucpWebhookOutbox.deliveredAt));
    if (failure === undefined) {
      await db
        .update(ucpWebhookOutbox)
        .set({ deliveredAt: sql`now()`, lastError: null })
        .where(mine);
      return;
    }
    const wait = retryDelayMs(row.attempts, o.retryBaseMs, o.retryMaxMs);
    await db
      .update(ucpWebhookOutbox)
      .set({ nextAttemptAt: sql`now() + ${ms(wait)}`, lastError: failure.slice(0, 500) })
      .where(mine);
    logger().warn(
      {
        order: row.orderId,
        event: row.eventType,
        attempts: row.attempts,
        retry_in_ms: wait,
        reason: failure,
      },
      'UCP webhook not delivered',
    );
  }

  async function runOnce(): Promise<number> {
    try {
      const claimed = await claimDue(db, BATCH, leaseMs);
      await Promise.all(claimed.map(deliver));
      return claimed.length;
    } catch (err) {
      // The database may be briefly unreachable; the next pass tries again.
      logger().error({ err_type: (err as Error)?.name }, 'UCP webhook pass failed');
      return 0;
    }
  }

  function schedule(delayMs: number): void {
    if (stopping) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (pass) return;
      pass = runOnce().finally(() => {
        pass = undefined;
        if (looksLeft > 0) {
          looksLeft--;
          schedule(NUDGE_INTERVAL_MS);
        } else schedule(o.pollMs);
      });
    }, delayMs);
    timer.unref();
  }

  function nudge(): void {
    looksLeft = NUDGE_LOOKS;
    if (!pass) schedule(0);
  }

  onWebhookNudge(nudge);
  schedule(0);
  return {
    runOnce,
    nudge,
    async stop() {
      stopping = true;
      clearTimeout(timer);
      onWebhookNudge(undefined);
      await pass;
    },
  };
}
