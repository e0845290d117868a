import { and, asc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders } from '../db/schema';
import { logger } from '../log/logger';
import { connectionFor, platformFor, type PlatformFulfillment } from '../platforms';
import { findStoreById, type StoreRow } from '../stores/access';
import { storeToken } from '../stores/credentials';
import { UcpError } from './errors';
import type { UcpOrder } from './order';
import { enqueueOrderEvent } from './webhooks/outbox';

/**
 * What we know of a UCP order's shipments comes from its store: the platform's fulfillments,
 * read through the adapter. Each one the order does not show yet becomes a `shipped` fulfillment
 * event (its id `shp_{platform fulfillment id}`, so learning twice records once), its line items'
 * fulfilled quantities and status follow, and the agent hears `order_shipped` with the whole
 * order. Shopify can also tell us at once with its `fulfillments/create` webhook; until that is
 * received (it needs a public URL and the app's webhook secret), a poller asks every open UCP
 * order's store, and simulate-shipping asks right after it ships.
 */

type FulfillmentEvent = UcpOrder['fulfillment']['events'][number];

function connection(store: StoreRow) {
  const token = storeToken(store);
  if (!token)
    throw new UcpError(502, 'STORE_UNAVAILABLE', `Store ${store.id} has no Admin API token`);
  return connectionFor(store, token);
}

/** The order's line item a platform line ships: the UCP item id names its variant or product. */
function lineOf(order: UcpOrder, line: PlatformFulfillment['lines'][number]) {
  return order.line_items.find(
    (l) =>
      l.item.id === line.variantId || (line.productId !== null && l.item.id === line.productId),
  );
}

/** The order with `fulfillments` recorded as shipped events; undefined when none is new. */
export function withShipments(
  order: UcpOrder,
  fulfillments: PlatformFulfillment[],
): UcpOrder | undefined {
  const known = new Set(order.fulfillment.events.map((e) => e.id));
  const fresh = fulfillments.filter((f) => !known.has(`shp_${f.id}`));
  if (fresh.length === 0) return undefined;
  const fulfilled = new Map(order.line_items.map((l) => [l.id, l.quantity.fulfilled]));
  const events: FulfillmentEvent[] = fresh.map((f) => {
    const lines = f.lines.flatMap((pl) => {
      const line = lineOf(order, pl);
      if (!line || pl.quantity < 1) return [];
      fulfilled.set(
        line.id,
        Math.min((fulfilled.get(line.id) ?? 0) + pl.quantity, line.quantity.total),
      );
      return [{ id: line.id, quantity: pl.quantity }];
    });
    return {
      id: `shp_${f.id}`,
      occurred_at: f.createdAt,
      type: 'shipped',
      line_items: lines,
      ...(f.trackingNumber ? { tracking_number: f.trackingNumber } : {}),
      ...(f.trackingUrl ? { tracking_url: f.trackingUrl } : {}),
      ...(f.carrier ? { carrier: f.carrier } : {}),
    };
  });
  return {
    ...order,
    line_items: order.line_items.map((l) => {
      const done = fulfilled.get(l.id) ?? 0;
      const status = done >= l.quantity.total ? 'fulfilled' : done > 0 ? 'partial' : l.status;
      return { ...l, quantity: { ...l.quantity, fulfilled: done }, status };
    }),
    fulfillment: { ...order.fulfillment, events: [...order.fulfillment.events, ...events] },
  };
}

/**
 * Reads the order's fulfillments from its store and records the new ones (see above), in one
 * transaction with the `order_shipped` event. Returns the order as it now is.
 */
export async function learnShipments(db: Db, store: StoreRow, orderId: string): Promise<UcpOrder> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!row?.ucp || !row.platformOrderId)
    throw new UcpError(404, 'RESOURCE_NOT_FOUND', 'Order not found');
  const read = await platformFor(store).listFulfillments(connection(store), row.platformOrderId);
  if (!read.ok) {
    throw new UcpError(
      502,
      'STORE_UNAVAILABLE',
      `The store's shipments could not be read: ${read.reason}`,
    );
  }
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    const current = locked!.ucp as UcpOrder;
    const shipped = withShipments(current, read.fulfillments);
    if (!shipped) return current;
    await tx
      .update(orders)
      .set({ ucp: shipped, updatedAt: new Date() })
      .where(eq(orders.id, orderId));
    await enqueueOrderEvent(tx, {
      storeId: store.id,
      orderId,
      eventType: 'order_shipped',
      agentProfileUrl: locked!.agentProfile,
      checkoutId: shipped.checkout_id,
      order: shipped,
    });
    return shipped;
  });
}

/** Has the store ship what is left of the order (a simulated shipment), then learns it. */
export async function shipAndLearn(db: Db, store: StoreRow, orderId: string): Promise<UcpOrder> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!row?.platformOrderId) throw new UcpError(404, 'RESOURCE_NOT_FOUND', 'Order not found');
  const shipped = await platformFor(store).shipOrder(connection(store), row.platformOrderId, {
    number: `SIM-${row.platformOrderId}`,
    carrier: 'Simulated carrier',
  });
  if (!shipped.ok) {
    throw new UcpError(
      502,
      'STORE_UNAVAILABLE',
      `The store could not ship the order: ${shipped.reason}`,
    );
  }
  return learnShipments(db, store, orderId);
}

const POLL_BATCH = 50;
/** Orders older than this are not asked about any more: a shipment takes days, not months. */
const POLL_WINDOW_DAYS = 60;

/** Open UCP orders, the ones looked at longest ago first. */
async function openOrders(db: Db) {
  const rows = await db
    .select({ id: orders.id, storeId: orders.storeId, ucp: orders.ucp })
    .from(orders)
    .where(
      and(
        eq(orders.source, 'ucp'),
        eq(orders.status, 'created'),
        isNotNull(orders.platformOrderId),
        gt(orders.createdAt, sql`now() - ${`${POLL_WINDOW_DAYS} days`}::interval`),
      ),
    )
    .orderBy(asc(orders.updatedAt))
    .limit(POLL_BATCH);
  return rows.filter((r) =>
    (r.ucp as UcpOrder | null)?.line_items.some((l) => l.quantity.fulfilled < l.quantity.total),
  );
}

/**
 * Asks the stores of open UCP orders for their shipments every `intervalMs`. Replicas may run
 * it at once: each new shipment is recorded (and announced) once, under the order's row lock.
 */
export function startShipmentPoller(db: Db, intervalMs = 60_000): { stop(): Promise<void> } {
  let stopping = false;
  let pass: Promise<void> | undefined;
  const runOnce = async () => {
    try {
      for (const order of await openOrders(db)) {
        if (stopping) break;
        const store = await findStoreById(db, order.storeId);
        if (!store?.verified) continue;
        await learnShipments(db, store, order.id).catch((err: unknown) =>
          logger().warn({ order: order.id, reason: (err as Error).message }, 'shipments not read'),
        );
      }
    } catch (err) {
      logger().error({ err_type: (err as Error)?.name }, 'shipment poll failed');
    }
  };
  const timer = setInterval(() => {
    pass ??= runOnce().finally(() => (pass = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopping = true;
      clearInterval(timer);
      await pass;
    },
  };
}
