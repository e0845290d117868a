import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { ApiCode } from '../contract/codes';
import {
  buyResponse,
  idempotencyKey,
  type ParsedBuyRequest,
  type BuyResponse,
} from '../contract/orders';
import type { Db } from '../db/client';
import { orders } from '../db/schema';
import { ApiError } from '../errors';
import { awaitFlight, PROCESS_OWNER } from './lease';
import type { OrderRow } from './records';

/**
 * Idempotency-Key: the first request with a key records its order under (developer, key) with a
 * unique index; every later request with that key replays the recorded answer. Two requests
 * racing with one key both try the insert, the index lets exactly one win, and the other shares
 * the winner's answer when it runs in the same process and comes soon, or is told to retry.
 */

export function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  const checked = idempotencyKey.safeParse(key);
  if (!checked.success) {
    throw new ApiError(
      'BAD_REQUEST_ERROR',
      `The Idempotency-Key header ${checked.error.issues[0]?.message ?? 'is not valid'}`,
    );
  }
  return key;
}

/** The body's meaning, so a retry that spells an id as a number still counts as the same request. */
export function requestHash(body: ParsedBuyRequest): string {
  const canonical = JSON.stringify([
    body.user_id,
    body.store_id,
    body.items.map((i) => [i.variant_id, i.quantity]),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

export async function findByKey(
  db: Db,
  developerId: string,
  key: string,
): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.developerId, developerId), eq(orders.idempotencyKey, key)));
  return row;
}

/** How long a repeated request waits for the same order's work in this process. */
const FLIGHT_WAIT_MS = 2_000;

/** A request with this key whose first request had another body. */
export function checkSameRequest(first: OrderRow, hash: string): void {
  if (first.requestHash !== hash) {
    throw new ApiError(
      'IDEMPOTENCY_KEY_REUSED',
      `This Idempotency-Key was already used for a different purchase (order ${first.id}); use a new key for a new purchase`,
    );
  }
}

/** Seconds until `until`, as Retry-After says them: at least 1, at most a minute. */
export function secondsUntil(until: Date | null): number {
  const seconds = Math.ceil(((until?.getTime() ?? 0) - Date.now()) / 1000);
  return Math.min(Math.max(seconds, 1), 60);
}

/** The answer to a repeat while the order is still being settled (or waits for the store). */
export function inProgress(
  order: OrderRow,
  until: Date | null = order.leaseUntil,
  reason = 'it is being settled with the store',
): ApiError {
  const retryAfter = secondsUntil(until);
  return new ApiError(
    'IDEMPOTENCY_KEY_IN_USE',
    `Order ${order.id} of this Idempotency-Key is still pending: ${reason}; retry in ${retryAfter} s`,
    409,
    undefined,
    { headers: { 'Retry-After': String(retryAfter) } },
  );
}

/**
 * The answer the same order's work in this process gives within a short wait (concurrent
 * duplicates share the first request's answer), or undefined when there is none in time.
 */
export async function sharedAnswer(order: OrderRow): Promise<{ value: BuyResponse } | undefined> {
  const here = order.leaseOwner === PROCESS_OWNER;
  const flight = await awaitFlight(order.id, FLIGHT_WAIT_MS, here);
  // Every flight is an order being placed or settled (service.ts), which answers a BuyResponse.
  return flight.settled ? { value: flight.value as BuyResponse } : undefined;
}

/** The recorded answer: its body, or its failure thrown again. */
export function replayAnswer(settled: OrderRow): BuyResponse {
  if (settled.responseStatus! < 300) return buyResponse.parse(settled.response);
  const failure = settled.response as { code: ApiCode; error: string };
  throw new ApiError(failure.code, failure.error, settled.responseStatus!);
}
