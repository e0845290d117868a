import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { ApiCode } from '../contract/codes';
import { buyResponse, idempotencyKey, type BuyRequest, type BuyResponse } from '../contract/orders';
import type { Db } from '../db/client';
import { orders } from '../db/schema';
import { ApiError } from '../errors';
import { platformSettings } from '../platforms/settings';
import type { OrderRow } from './records';

/**
 * Idempotency-Key: the first request with a key records its order under (developer, key) with a
 * unique index; every later request with that key replays the recorded answer. Two requests
 * racing with one key both try the insert, the index lets exactly one win, and the other waits
 * for the winner's answer.
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
export function requestHash(body: BuyRequest): string {
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

/**
 * Longest a first request can take: the order call and the lookup that may follow it, every
 * attempt timing out and every wait at its maximum.
 */
function firstRequestBudgetMs(): number {
  const s = platformSettings();
  const attempts = s.PLATFORM_RETRY_LIMIT + 1;
  const oneCall =
    attempts * s.PLATFORM_TIMEOUT_MS + s.PLATFORM_RETRY_LIMIT * s.PLATFORM_MAX_RETRY_AFTER_MS;
  return 2 * oneCall;
}

/** How long a repeated request waits for the first one before asking its caller to retry. */
const WAIT_CAP_MS = 20_000;

/** A pending order whose request has shown no sign of life for longer than any request takes. */
function isAbandoned(row: OrderRow): boolean {
  return row.status === 'pending' && Date.now() - row.updatedAt.getTime() > firstRequestBudgetMs();
}

async function awaitSettled(db: Db, first: OrderRow): Promise<OrderRow> {
  const deadline = Date.now() + WAIT_CAP_MS;
  let row = first;
  let pause = 50;
  while (row.status === 'pending' && !isAbandoned(row) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 500);
    const [fresh] = await db.select().from(orders).where(eq(orders.id, first.id));
    row = fresh ?? row;
  }
  return row;
}

/**
 * The first request with this key, once it has finished or been abandoned (a crash left it
 * pending): refused when the body differs, IDEMPOTENCY_KEY_IN_USE while it is still running.
 */
export async function settledFirst(db: Db, first: OrderRow, hash: string): Promise<OrderRow> {
  if (first.requestHash !== hash) {
    throw new ApiError(
      'IDEMPOTENCY_KEY_REUSED',
      `This Idempotency-Key was already used for a different purchase (order ${first.id}); use a new key for a new purchase`,
    );
  }
  const settled = await awaitSettled(db, first);
  if (settled.status === 'pending' && !isAbandoned(settled)) {
    throw new ApiError(
      'IDEMPOTENCY_KEY_IN_USE',
      `The first request with this Idempotency-Key (order ${first.id}) has not finished; retry in a few seconds`,
    );
  }
  return settled;
}

/** The recorded answer: its body, or its failure thrown again. */
export function replayAnswer(settled: OrderRow): BuyResponse {
  if (settled.responseStatus! < 300) return buyResponse.parse(settled.response);
  const failure = settled.response as { code: ApiCode; error: string };
  throw new ApiError(failure.code, failure.error, settled.responseStatus!);
}
