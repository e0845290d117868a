import { and, desc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Caller } from '../auth/keys';
import type { ApiCode } from '../contract/codes';
import type { ParsedBuyRequest, BuyResponse, OrderRecord, OrderSource } from '../contract/orders';
import type { Db } from '../db/client';
import { newId } from '../db/ids';
import { orders } from '../db/schema';
import { ApiError } from '../errors';
import { logger } from '../log/logger';
import {
  connectionFor,
  platformFor,
  type PlatformOrderResult,
  type PlatformPricing,
  type StoreConnection,
} from '../platforms';
import { findStoreById, type StoreRow } from '../stores/access';
import { storeToken, TokenKeyError } from '../stores/credentials';
import { markUnverified } from '../stores/verification';
import {
  checkIdempotencyKey,
  checkSameRequest,
  findByKey,
  inProgress,
  replayAnswer,
  requestHash,
  secondsUntil,
  sharedAnswer,
} from './idempotency';
import { claimOrder, holdLease, inFlight, leaseFor, park, PROCESS_OWNER } from './lease';
import { prepareOrder, type PreparedOrder } from './preparation';
import { toOrderRecord, type OrderRow } from './records';

/**
 * An order's life: recorded `pending` before the store is called, so a crash in between leaves
 * a visible record rather than an unknown; then `created` with the store's order id, or
 * `failed` with the reason, and the answer sent is stored with it and replayed for a repeated
 * Idempotency-Key. An order is reported failed only when the store provably does not have it:
 * it refused it, it was never sent, or a lookup after the time the store could still have
 * created it found nothing. Until then it stays pending, held by whoever settles it (see
 * ./lease): the request, a retry with its key, or the background reconciler.
 */

type AnswerBody = BuyResponse | { code: ApiCode; error: string };

interface Answer {
  status: number;
  body: AnswerBody;
}

/**
 * Records the outcome of a pending order and answers with it (or with the one recorded first).
 * With onlyIfFinal, a failure is recorded only once the store can no longer create the order
 * late; before that, nothing is recorded and the answer is undefined.
 */
async function finish(
  db: Db,
  order: OrderRow,
  answer: Answer,
  opts?: { platformOrderId?: string },
): Promise<BuyResponse>;
async function finish(
  db: Db,
  order: OrderRow,
  answer: Answer,
  opts: { onlyIfFinal: true },
): Promise<BuyResponse | undefined>;
async function finish(
  db: Db,
  order: OrderRow,
  answer: Answer,
  opts: { platformOrderId?: string; onlyIfFinal?: boolean } = {},
): Promise<BuyResponse | undefined> {
  const error = 'error' in answer.body ? answer.body.error : null;
  const [row] = await db
    .update(orders)
    .set({
      status: error === null ? 'created' : 'failed',
      platformOrderId: opts.platformOrderId ?? null,
      errorCode: error === null ? null : answer.body.code,
      errorMessage: error,
      response: answer.body,
      responseStatus: answer.status,
      leaseOwner: null,
      leaseUntil: null,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(orders.id, order.id),
        eq(orders.status, 'pending'),
        opts.onlyIfFinal
          ? or(isNull(orders.settleAfter), lte(orders.settleAfter, sql`now()`))
          : undefined,
      ),
    )
    .returning();
  if (!row) {
    const [current] = await db.select().from(orders).where(eq(orders.id, order.id));
    if (current?.status === 'pending') return undefined;
    return replayAnswer(current!);
  }
  if (!('error' in answer.body)) return answer.body;
  throw new ApiError(answer.body.code, answer.body.error, answer.status);
}

function failure(code: ApiCode, status: number, error: string): Answer {
  return { status, body: { code, error } };
}

function created(order: OrderRow, store: StoreRow, platformOrderId: string): Answer {
  return {
    status: 201,
    body: {
      code: 'ORDER_CREATED',
      message: `Order ${order.id} created in ${store.name} (store order ${platformOrderId}); payment is pending`,
      order_id: order.id,
    },
  };
}

/** The answer for a definitive platform outcome (anything but "the store may have it"). */
function answerFor(result: PlatformOrderResult, order: OrderRow, store: StoreRow): Answer {
  switch (result.outcome) {
    case 'created':
      return created(order, store, result.platformOrderId);
    case 'unauthorized':
      return failure(
        'STORE_NOT_VERIFIED',
        409,
        `The store refused its Admin API token, so it is no longer verified; order ${order.id} was not placed`,
      );
    case 'rejected':
      return failure(
        'BAD_REQUEST_ERROR',
        400,
        `${result.reason}; order ${order.id} was not placed`,
      );
    case 'unavailable':
      return failure(
        'STORE_PLATFORM_ERROR',
        502,
        `${result.reason}; order ${order.id} was not placed`,
      );
  }
}

/** The store's connection, or the answer to record when its credentials cannot be used. */
async function connect(
  db: Db,
  store: StoreRow,
  order: OrderRow,
): Promise<StoreConnection | Answer> {
  try {
    const token = storeToken(store);
    if (token) return connectionFor(store, token);
  } catch (err) {
    if (!(err instanceof TokenKeyError)) throw err;
    logger().error({ store: store.id, err_msg: err.message }, 'store token unusable');
    return failure(
      'INTERNAL_ERROR',
      500,
      `The service cannot use the credentials of store ${store.id} right now; order ${order.id} was not placed`,
    );
  }
  await markUnverified(db, store, 'No Admin API token is attached to this store');
  return failure(
    'STORE_NOT_VERIFIED',
    409,
    `Store ${store.id} has no Admin API token; order ${order.id} was not placed`,
  );
}

/**
 * The store may have the order but has not shown it: it stays pending, parked until the store
 * can be asked again, and the caller hears why and when to look. The request that placed it
 * hears of a store failure; a retry with its key, that the order is still being settled.
 */
async function undecided(
  db: Db,
  order: OrderRow,
  reason: string,
  owner: string,
  answeredAs: 'placing' | 'retry',
): Promise<never> {
  const until = await park(db, order.id, owner);
  logger().warn(
    { order: order.id, store: order.storeId },
    'order pending until the store shows it',
  );
  if (answeredAs === 'retry') throw inProgress(order, until, reason);
  throw new ApiError(
    'STORE_PLATFORM_ERROR',
    `${reason}. The store may still have received order ${order.id}: it stays pending and is looked up at the store again until it is found or provably absent (next at ${until.toISOString()}); see GET /orders/${order.id}, or retry with the same Idempotency-Key`,
    502,
    undefined,
    { headers: { 'Retry-After': String(secondsUntil(until)) } },
  );
}

/** What placing an order at its store needs: /buy's prepared order, or a UCP checkout's. */
export type Submission = Pick<PreparedOrder, 'store' | 'lines' | 'shipping'> & {
  pricing?: PlatformPricing;
};

/**
 * Places a recorded pending order at its store and records the outcome: created (answered),
 * refused or failed (thrown as its ApiError), or undecided (parked pending, thrown).
 */
export async function submitOrder(
  db: Db,
  prepared: Submission,
  order: OrderRow,
): Promise<BuyResponse> {
  const { store } = prepared;
  const connection = await connect(db, store, order);
  if ('status' in connection) return finish(db, order, connection);
  await db
    .update(orders)
    .set({ attempts: sql`${orders.attempts} + 1`, updatedAt: new Date() })
    .where(eq(orders.id, order.id));
  const platform = platformFor(store);
  const result = await holdLease(
    db,
    order.id,
    () =>
      platform.createOrder(connection, {
        reference: order.id,
        lines: prepared.lines.map((l) => ({ variantId: l.variant_id, quantity: l.quantity })),
        email: prepared.shipping.email,
        shipping: prepared.shipping,
        pricing: prepared.pricing,
      }),
    { sending: true },
  );
  if (result.outcome === 'unavailable' && result.mayExist) {
    const lookup = await platform.findOrder(connection, order.id, order.createdAt);
    if (!lookup.found) return undecided(db, order, result.reason, PROCESS_OWNER, 'placing');
    return finish(db, order, created(order, store, lookup.platformOrderId), {
      platformOrderId: lookup.platformOrderId,
    });
  }
  if (result.outcome === 'unauthorized') {
    await markUnverified(
      db,
      store,
      `The Admin API token was refused while creating order ${order.id}: ${result.reason}`,
    );
  }
  if (result.outcome !== 'created') {
    logger().warn(
      { order: order.id, store: store.id, outcome: result.outcome, reason: result.reason },
      'order not placed',
    );
  }
  return finish(db, order, answerFor(result, order, store), {
    platformOrderId: result.outcome === 'created' ? result.platformOrderId : undefined,
  });
}

/**
 * Settles a pending order this worker holds (a retry with its key, or the reconciler) by asking
 * the store: created when it has the order, failed when it provably never will, otherwise
 * parked again with the reason thrown.
 */
export async function settlePending(db: Db, order: OrderRow, owner: string): Promise<BuyResponse> {
  const stopped = (when: string) =>
    failure(
      'STORE_PLATFORM_ERROR',
      502,
      `The request placing order ${order.id} stopped ${when}; the order was not placed`,
    );
  const store = await findStoreById(db, order.storeId);
  if (order.attempts === 0 || !store)
    return finish(db, order, stopped('before the store was called'));
  const connection = await connect(db, store, order);
  if ('status' in connection) {
    return undecided(db, order, 'the store cannot be asked about it', owner, 'retry');
  }
  const lookup = await holdLease(
    db,
    order.id,
    () => platformFor(store).findOrder(connection, order.id, order.createdAt),
    { owner },
  );
  if (lookup.found) {
    logger().info({ order: order.id, store: store.id }, 'pending order found at the store');
    return finish(db, order, created(order, store, lookup.platformOrderId), {
      platformOrderId: lookup.platformOrderId,
    });
  }
  if (lookup.found === false) {
    const answer = stopped('before the store answered, and the store has no such order');
    const settled = await finish(db, order, answer, { onlyIfFinal: true });
    if (settled !== undefined) return settled;
    return undecided(db, order, 'the store does not show it yet', owner, 'retry');
  }
  return undecided(db, order, `the store cannot be asked yet (${lookup.reason})`, owner, 'retry');
}

/**
 * A request repeating an Idempotency-Key: the recorded answer once the order is settled;
 * while it is pending, the answer of the work already running on it in this process, or this
 * request settles it when nobody holds it, or it hears at once to retry later.
 */
async function answerRepeat(db: Db, first: OrderRow, hash: string): Promise<BuyResponse> {
  checkSameRequest(first, hash);
  if (first.status !== 'pending') return replayAnswer(first);
  const shared = await sharedAnswer(first);
  if (shared) return shared.value;
  const claimed = await claimOrder(db, first.id);
  if (!claimed) {
    const [current] = await db.select().from(orders).where(eq(orders.id, first.id));
    if (current!.status !== 'pending') return replayAnswer(current!);
    throw inProgress(current!);
  }
  return inFlight(claimed.id, () => settlePending(db, claimed, PROCESS_OWNER));
}

/**
 * POST /buy: validates, records, places the order with the store, and answers (or replays). The
 * source is not part of the request's hash: a retry through another client is the same order.
 */
export async function placeOrder(
  db: Db,
  caller: Caller,
  body: ParsedBuyRequest,
  idempotencyKeyHeader: string | undefined,
  source: OrderSource,
): Promise<BuyResponse> {
  const key = checkIdempotencyKey(idempotencyKeyHeader);
  const hash = requestHash(body);
  if (key) {
    const first = await findByKey(db, caller.developerId, key);
    if (first) return answerRepeat(db, first, hash);
  }
  const prepared = await prepareOrder(db, caller, body);
  const [order] = await db
    .insert(orders)
    .values({
      id: newId('ord'),
      developerId: caller.developerId,
      profileId: prepared.profileId,
      storeId: prepared.store.id,
      source,
      idempotencyKey: key ?? null,
      requestHash: hash,
      status: 'pending',
      lines: prepared.lines,
      shipping: prepared.shipping,
      totalPrice: prepared.totalPrice,
      ...leaseFor(PROCESS_OWNER),
    })
    .onConflictDoNothing({ target: [orders.developerId, orders.idempotencyKey] })
    .returning();
  if (!order) {
    // A concurrent request with the same key inserted first: answer as it does.
    const first = await findByKey(db, caller.developerId, key!);
    return answerRepeat(db, first!, hash);
  }
  return inFlight(order.id, () => submitOrder(db, prepared, order));
}

export async function getOrder(db: Db, caller: Caller, orderId: string): Promise<OrderRecord> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.developerId, caller.developerId)));
  if (!row) throw new ApiError('ORDER_NOT_FOUND', `No order with id ${orderId}`);
  return toOrderRecord(row);
}

export async function listOrders(
  db: Db,
  caller: Caller,
  filter: { userId?: string; limit: number },
): Promise<OrderRecord[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.developerId, caller.developerId),
        filter.userId ? eq(orders.profileId, filter.userId) : undefined,
      ),
    )
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(filter.limit);
  return rows.map(toOrderRecord);
}

export type StoreOrderRecord = OrderRecord & {
  developer_id: string | null;
  agent_profile: string | null;
  fulfillment: string;
};

/** The latest fulfillment event of a UCP order (orders.ucp), or 'not shipped'. */
function fulfillmentState(row: OrderRow): string {
  const events = (row.ucp as { fulfillment?: { events?: Array<{ type?: unknown }> } } | null)
    ?.fulfillment?.events;
  const latest = events?.at(-1)?.type;
  return typeof latest === 'string' ? latest : 'not shipped';
}

/** A store's orders from every developer, for its staff. */
export async function listStoreOrders(
  db: Db,
  storeId: string,
  limit: number,
): Promise<StoreOrderRecord[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.storeId, storeId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
  return rows.map((row) => ({
    ...toOrderRecord(row),
    developer_id: row.developerId,
    agent_profile: row.agentProfile,
    fulfillment: fulfillmentState(row),
  }));
}
