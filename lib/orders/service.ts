import { and, desc, eq, sql } from 'drizzle-orm';
import type { Caller } from '../auth/keys';
import type { ApiCode } from '../contract/codes';
import type { BuyRequest, BuyResponse, OrderRecord } from '../contract/orders';
import type { Db } from '../db/client';
import { newId } from '../db/ids';
import { orders } from '../db/schema';
import { ApiError } from '../errors';
import { logger } from '../log/logger';
import {
  connectionFor,
  platformFor,
  type PlatformOrderResult,
  type StoreConnection,
} from '../platforms';
import { findStoreById, type StoreRow } from '../stores/access';
import { storeToken, TokenKeyError } from '../stores/credentials';
import { markUnverified } from '../stores/verification';
import {
  checkIdempotencyKey,
  findByKey,
  replayAnswer,
  requestHash,
  settledFirst,
} from './idempotency';
import { prepareOrder, type PreparedOrder } from './preparation';
import { toOrderRecord, type OrderRow } from './records';

/**
 * An order's life: recorded `pending` before the store is called, so a crash in between leaves
 * a visible record rather than an unknown; then `created` with the store's order id, or
 * `failed` with the reason. The answer sent is stored with it and replayed for a repeated
 * Idempotency-Key. When the store may have received an order despite a failure (a timeout, a
 * dropped connection, a 5xx), the order is looked up by its id, which it carries as a tag:
 * right away, and again whenever the same key is retried.
 */

type AnswerBody = BuyResponse | { code: ApiCode; error: string };

interface Answer {
  status: number;
  body: AnswerBody;
}

async function finish(
  db: Db,
  order: OrderRow,
  answer: Answer,
  platformOrderId?: string,
): Promise<BuyResponse> {
  const error = 'error' in answer.body ? answer.body.error : null;
  await db
    .update(orders)
    .set({
      status: error === null ? 'created' : 'failed',
      platformOrderId: platformOrderId ?? null,
      errorCode: error === null ? null : answer.body.code,
      errorMessage: error,
      response: answer.body,
      responseStatus: answer.status,
      updatedAt: new Date(),
    })
    .where(eq(orders.id, order.id));
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
        result.mayExist
          ? `${result.reason}. The store may still have received order ${order.id}: it is recorded as failed and never sent again; retry with the same Idempotency-Key to look it up at the store`
          : `${result.reason}; order ${order.id} was not placed`,
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

async function submit(db: Db, prepared: PreparedOrder, order: OrderRow): Promise<BuyResponse> {
  const { store } = prepared;
  const connection = await connect(db, store, order);
  if ('status' in connection) return finish(db, order, connection);
  await db
    .update(orders)
    .set({ attempts: sql`${orders.attempts} + 1`, updatedAt: new Date() })
    .where(eq(orders.id, order.id));
  const platform = platformFor(store);
  let result = await platform.createOrder(connection, {
    reference: order.id,
    lines: prepared.lines.map((l) => ({ variantId: l.variant_id, quantity: l.quantity })),
    email: prepared.shipping.email,
    shipping: prepared.shipping,
  });
  if (result.outcome === 'unavailable' && result.mayExist) {
    const lookup = await platform.findOrder(connection, order.id, order.createdAt);
    if (lookup.found) result = { outcome: 'created', platformOrderId: lookup.platformOrderId };
  }
  if (result.outcome === 'unauthorized') {
    await markUnverified(
      db,
      store,
      `The Admin API token was refused while creating order ${order.id}: ${result.reason}`,
    );
  }
  if (result.outcome !== 'created') {
    // The platform's reason can quote the shopper's details; the order records it, the log does not.
    logger().warn(
      { order: order.id, store: store.id, outcome: result.outcome },
      'order not placed',
    );
  }
  return finish(
    db,
    order,
    answerFor(result, order, store),
    result.outcome === 'created' ? result.platformOrderId : undefined,
  );
}

/**
 * A failed order the store may nevertheless have received: if the store has it, it becomes
 * `created` and that is the answer; otherwise undefined and the recorded failure stands.
 */
async function recover(db: Db, order: OrderRow): Promise<BuyResponse | undefined> {
  if (order.status !== 'failed' || order.errorCode !== 'STORE_PLATFORM_ERROR') return undefined;
  const store = await findStoreById(db, order.storeId);
  if (!store) return undefined;
  const connection = await connect(db, store, order).catch(() => undefined);
  if (!connection || 'status' in connection) return undefined;
  const lookup = await platformFor(store).findOrder(connection, order.id, order.createdAt);
  if (!lookup.found) return undefined;
  logger().info({ order: order.id, store: store.id }, 'order found at the store after a failure');
  return finish(db, order, created(order, store, lookup.platformOrderId), lookup.platformOrderId);
}

/**
 * An order whose request died before recording the store's answer: the store is asked whether
 * it has the order, and the order is settled on that. If the store cannot be asked, it stays
 * pending for the next retry.
 */
async function settleAbandoned(db: Db, order: OrderRow): Promise<BuyResponse> {
  const notPlaced = (when: string) =>
    failure(
      'STORE_PLATFORM_ERROR',
      502,
      `The request placing order ${order.id} stopped ${when}; the order was not placed`,
    );
  const store = await findStoreById(db, order.storeId);
  if (order.attempts === 0 || !store)
    return finish(db, order, notPlaced('before the store was called'));
  const connection = await connect(db, store, order);
  if ('status' in connection) return finish(db, order, connection);
  const lookup = await platformFor(store).findOrder(connection, order.id, order.createdAt);
  if (lookup.found === undefined) {
    throw new ApiError(
      'STORE_PLATFORM_ERROR',
      `Cannot tell yet whether the store received order ${order.id} (${lookup.reason}); retry later with the same Idempotency-Key`,
    );
  }
  logger().warn({ order: order.id, found: lookup.found }, 'abandoned order settled');
  return lookup.found
    ? finish(db, order, created(order, store, lookup.platformOrderId), lookup.platformOrderId)
    : finish(db, order, notPlaced('before the store answered, and the store has no such order'));
}

async function answerRepeat(db: Db, first: OrderRow, hash: string): Promise<BuyResponse> {
  const settled = await settledFirst(db, first, hash);
  if (settled.status === 'pending') return settleAbandoned(db, settled);
  return (await recover(db, settled)) ?? replayAnswer(settled);
}

/** POST /buy: validates, records, places the order with the store, and answers (or replays). */
export async function placeOrder(
  db: Db,
  caller: Caller,
  body: BuyRequest,
  idempotencyKeyHeader: string | undefined,
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
      idempotencyKey: key ?? null,
      requestHash: hash,
      status: 'pending',
      lines: prepared.lines,
      shipping: prepared.shipping,
      totalPrice: prepared.totalPrice,
    })
    .onConflictDoNothing({ target: [orders.developerId, orders.idempotencyKey] })
    .returning();
  if (!order) {
    // A concurrent request with the same key inserted first: answer as it does.
    const first = await findByKey(db, caller.developerId, key!);
    return answerRepeat(db, first!, hash);
  }
  return submit(db, prepared, order);
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

export type StoreOrderRecord = OrderRecord & { developer_id: string };

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
  return rows.map((row) => ({ ...toOrderRecord(row), developer_id: row.developerId }));
}
