import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { and, asc, eq, gt, inArray, isNull, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders } from '../db/schema';
import type { OrderRow } from './records';
import { orderSettings } from './settings';

/**
 * Leases on pending orders: a worker (the request placing an order, a request retrying it, a
 * reconciler) claims an order with one conditional UPDATE, so across every process on the
 * database exactly one works on it at a time; it renews the lease while it works, and a crash
 * lets it lapse. All times are the database's, so replicas' clocks never disagree on them.
 */

/** This process, as the owner of the leases it takes. */
export const PROCESS_OWNER = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

const ms = (n: number) => sql`(${n} * interval '1 millisecond')`;

/** The lease columns of an order that `owner` has just claimed. */
export function leaseFor(owner: string) {
  return { leaseOwner: owner, leaseUntil: sql`now() + ${ms(orderSettings().ORDER_LEASE_MS)}` };
}

/**
 * Claims one pending order that nobody works on: its lease lapsed, or it is parked and was last
 * looked at longer than a lease ago, so retries ask the store at most once a lease period.
 * Undefined when another worker holds it, it was just looked at, or it is settled, and when its
 * work runs in this process (see due()), whatever its lease says.
 */
export async function claimOrder(
  db: Db,
  orderId: string,
  owner = PROCESS_OWNER,
): Promise<OrderRow | undefined> {
  if (flights.has(orderId)) return undefined;
  const [row] = await db
    .update(orders)
    .set(leaseFor(owner))
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.status, 'pending'),
        or(
          isNull(orders.leaseUntil),
          lte(orders.leaseUntil, sql`now()`),
          and(
            isNull(orders.leaseOwner),
            lte(orders.updatedAt, sql`now() - ${ms(orderSettings().ORDER_LEASE_MS)}`),
          ),
        ),
      ),
    )
    .returning();
  return row;
}

/**
 * Pending orders whose lease lapsed or whose parking time is up, but not those being worked on
 * in this process: their lease lapsed only because a renewal came late (a busy database or
 * event loop), and a second worker would ask the store again for an answer already on its way.
 */
const due = () => {
  const runningHere = [...flights.keys()];
  return and(
    eq(orders.status, 'pending'),
    or(isNull(orders.leaseUntil), lte(orders.leaseUntil, sql`now()`)),
    runningHere.length > 0 ? notInArray(orders.id, runningHere) : undefined,
  );
};

/**
 * Claims up to `limit` due orders for a reconciler. `FOR UPDATE SKIP LOCKED` lets replicas
 * running this at once take disjoint orders instead of queueing behind each other, and the
 * repeated condition keeps an order another worker claimed meanwhile out.
 */
export async function claimDue(db: Db, owner: string, limit: number): Promise<OrderRow[]> {
  const candidates = db
    .select({ id: orders.id })
    .from(orders)
    .where(due())
    .orderBy(asc(orders.leaseUntil))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(orders)
    .set(leaseFor(owner))
    .where(and(inArray(orders.id, candidates), due()))
    .returning();
}

/**
 * Runs `work` while holding the order's lease, renewing it every third of its length. With
 * `sending`, the order may be reaching the store meanwhile, so each renewal also moves the time
 * from which a lookup that misses it is final.
 */
export async function holdLease<T>(
  db: Db,
  orderId: string,
  work: () => Promise<T>,
  opts: { owner?: string; sending?: boolean } = {},
): Promise<T> {
  const owner = opts.owner ?? PROCESS_OWNER;
  const { ORDER_LEASE_MS, STORE_LATE_ORDER_MS } = orderSettings();
  const renew = () =>
    db
      .update(orders)
      .set({
        leaseUntil: sql`now() + ${ms(ORDER_LEASE_MS)}`,
        ...(opts.sending
          ? { settleAfter: sql`now() + ${ms(ORDER_LEASE_MS + STORE_LATE_ORDER_MS)}` }
          : {}),
      })
      .where(
        and(eq(orders.id, orderId), eq(orders.leaseOwner, owner), eq(orders.status, 'pending')),
      )
      // A failed renewal only shortens the lease: the work goes on, and its result stands.
      .catch(() => undefined);
  if (opts.sending) await renew();
  const timer = setInterval(() => void renew(), Math.max(Math.floor(ORDER_LEASE_MS / 3), 50));
  timer.unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/**
 * Parks a pending order its holder could not settle: nobody holds it, and the reconciler looks
 * it up again once the store can no longer create it late, or, when that time has passed (the
 * store could not be asked), after a pause as long. Returns when that is.
 */
export async function park(db: Db, orderId: string, owner = PROCESS_OWNER): Promise<Date> {
  const { STORE_LATE_ORDER_MS } = orderSettings();
  const held = and(eq(orders.id, orderId), eq(orders.leaseOwner, owner));
  // Two statements rather than one CASE: Citus refuses now() inside CASE in an UPDATE.
  const parkUntil = (until: SQL, condition?: SQL) =>
    db
      .update(orders)
      .set({ leaseOwner: null, leaseUntil: until, updatedAt: sql`now()` })
      .where(and(held, condition))
      .returning({ until: orders.leaseUntil });
  const [untilSettled] = await parkUntil(
    sql`${orders.settleAfter}`,
    gt(orders.settleAfter, sql`now()`),
  );
  const [row] = untilSettled
    ? [untilSettled]
    : await parkUntil(sql`now() + ${ms(STORE_LATE_ORDER_MS)}`);
  return row?.until ?? new Date(Date.now() + STORE_LATE_ORDER_MS);
}

/** Lets go of the pending orders `owner` holds, so another worker may take them at once. */
export async function releaseAll(db: Db, owner: string): Promise<void> {
  await db
    .update(orders)
    .set({ leaseOwner: null, leaseUntil: sql`now()` })
    .where(and(eq(orders.leaseOwner, owner), eq(orders.status, 'pending')));
}

/**
 * The work each pending order has in this process right now, so that a repeated request waits
 * for the answer already being worked out instead of asking the store again.
 */
const flights = new Map<string, Promise<unknown>>();

export function inFlight<T>(orderId: string, work: () => Promise<T>): Promise<T> {
  const flight = work().finally(() => {
    if (flights.get(orderId) === flight) flights.delete(orderId);
  });
  flights.set(orderId, flight);
  return flight;
}

/**
 * The answer of this order's work in this process, if it comes within `waitMs`. With
 * `expected`, the work is known to run here but may not be registered yet (its request has yet
 * to hear from the database that it won the insert), so it is waited for too.
 */
export async function awaitFlight(
  orderId: string,
  waitMs: number,
  expected = false,
): Promise<{ settled: true; value: unknown } | { settled: false }> {
  const deadline = Date.now() + waitMs;
  let flight = flights.get(orderId);
  while (!flight && expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    flight = flights.get(orderId);
  }
  if (!flight) return { settled: false };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ settled: false }>((resolve) => {
    timer = setTimeout(() => resolve({ settled: false }), Math.max(deadline - Date.now(), 0));
  });
  try {
    return await Promise.race([
      flight.then((value) => ({ settled: true as const, value })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
