import { and, eq, ne } from 'drizzle-orm';
import type { OrderLine } from '../contract/orders';
import type { ShippingRecord } from '../contract/shipping';
import type { Db } from '../db/client';
import { orders } from '../db/schema';
import { ApiError } from '../errors';
import type { PlatformPricing } from '../platforms';
import type { StoreRow } from '../stores/access';
import { inFlight, leaseFor, PROCESS_OWNER } from './lease';
import type { OrderRow } from './records';
import { submitOrder } from './service';

/**
 * A paid UCP checkout's order, placed through the same path as /buy: recorded pending first
 * (source 'ucp', its checkout, its agent, the caller's profile it is for if any, and its
 * UCP body), then sent to the store with the
 * prices, discounts and shipping line the buyer agreed to, and settled like any order (a store
 * that may hold it keeps it pending for the reconciler). One checkout has one order: the unique
 * index on checkout_id makes a second attempt find the first.
 */
export interface CheckoutOrder {
  id: string;
  store: StoreRow;
  checkoutId: string;
  developerId: string | null;
  agentProfile: string | null;
  /** A profile of the caller's developer the order is for (it then lists among its orders). */
  profileId: string | null;
  lines: OrderLine[];
  shipping: ShippingRecord;
  pricing: PlatformPricing;
  totalPrice: string;
  ucp: unknown;
}

export type CheckoutOrderOutcome =
  | { state: 'created'; order: OrderRow }
  /** The store may have it: pending, settled later (the checkout waits for it). */
  | { state: 'pending'; order: OrderRow; error: ApiError }
  | { state: 'failed'; order: OrderRow; error: ApiError };

async function current(db: Db, id: string): Promise<OrderRow> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row!;
}

/** The checkout's order that is not failed, if one was recorded. */
export async function findCheckoutOrder(db: Db, checkoutId: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.checkoutId, checkoutId), ne(orders.status, 'failed')));
  return row;
}

export async function placeCheckoutOrder(
  db: Db,
  input: CheckoutOrder,
): Promise<CheckoutOrderOutcome> {
  const [order] = await db
    .insert(orders)
    .values({
      id: input.id,
      developerId: input.developerId,
      profileId: input.profileId,
      storeId: input.store.id,
      source: 'ucp',
      checkoutId: input.checkoutId,
      agentProfile: input.agentProfile,
      ucp: input.ucp,
      requestHash: input.checkoutId,
      status: 'pending',
      lines: input.lines,
      shipping: input.shipping,
      totalPrice: input.totalPrice,
      ...leaseFor(PROCESS_OWNER),
    })
    .onConflictDoNothing()
    .returning();
  if (!order) {
    const first = await findCheckoutOrder(db, input.checkoutId);
    if (!first) throw new Error(`order of checkout ${input.checkoutId} neither inserted nor found`);
    if (first.status === 'created') return { state: 'created', order: first };
    return {
      state: 'pending',
      order: first,
      error: new ApiError('STORE_PLATFORM_ERROR', `Order ${first.id} is still being placed`, 502),
    };
  }
  try {
    await inFlight(order.id, () =>
      submitOrder(
        db,
        {
          store: input.store,
          lines: input.lines,
          shipping: input.shipping,
          pricing: input.pricing,
        },
        order,
      ),
    );
    return { state: 'created', order: await current(db, order.id) };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const after = await current(db, order.id);
    return after.status === 'pending'
      ? { state: 'pending', order: after, error: err }
      : { state: 'failed', order: after, error: err };
  }
}
