import { z } from 'zod';
import type { ShopifyOrder } from './orders';

/**
 * Shipping an order as Shopify's Admin REST API does it since fulfillment orders replaced
 * order-level fulfillments: each order gets a fulfillment order holding its line items; a
 * fulfillment (`POST fulfillments.json`) takes some or all of a fulfillment order's items and
 * carries one tracking number; `GET orders/{id}/fulfillments.json` lists what was shipped.
 */

type Json = Record<string, unknown>;

export type FulfillmentOrderLine = Json & {
  id: number;
  line_item_id: number;
  quantity: number;
  fulfillable_quantity: number;
};

export type ShopifyFulfillmentOrder = Json & {
  id: number;
  order_id: number;
  status: 'open' | 'in_progress' | 'closed';
  line_items: FulfillmentOrderLine[];
};

export type ShopifyFulfillment = Json & { id: number; order_id: number };

export type FulfillmentRefusal = { status: 400 | 404 | 422; body: { errors: unknown } };

function shopifyTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

type OrderLine = Json & { id: number; quantity: number; variant_id: unknown };

function orderLines(order: ShopifyOrder): OrderLine[] {
  return order.line_items as OrderLine[];
}

/** The fulfillment order Shopify opens with every order: all its items, from one location. */
export function openFulfillmentOrder(
  order: ShopifyOrder,
  shopId: number,
  nextId: () => number,
): ShopifyFulfillmentOrder {
  const id = nextId();
  return {
    id,
    shop_id: shopId,
    order_id: order.id,
    assigned_location_id: shopId,
    request_status: 'unsubmitted',
    status: 'open',
    supported_actions: ['create_fulfillment'],
    destination: order.shipping_address ?? null,
    fulfillment_holds: [],
    created_at: order.created_at,
    updated_at: order.created_at,
    line_items: orderLines(order).map((line) => ({
      id: nextId(),
      shop_id: shopId,
      fulfillment_order_id: id,
      line_item_id: line.id,
      variant_id: line.variant_id,
      quantity: line.quantity,
      fulfillable_quantity: line.quantity,
    })),
  };
}

const fulfillmentSchema = z.looseObject({
  line_items_by_fulfillment_order: z
    .array(
      z.looseObject({
        fulfillment_order_id: z.union([z.int(), z.string().regex(/^\d+$/).transform(Number)]),
        fulfillment_order_line_items: z
          .array(
            z.looseObject({
              id: z.union([z.int(), z.string().regex(/^\d+$/).transform(Number)]),
              quantity: z.int().min(1),
            }),
          )
          .optional(),
      }),
    )
    .min(1),
  tracking_info: z
    .looseObject({
      number: z.string().nullish(),
      url: z.string().nullish(),
      company: z.string().nullish(),
    })
    .optional(),
  notify_customer: z.boolean().optional(),
});

export interface FulfillmentContext {
  fulfillmentOrders: ShopifyFulfillmentOrder[];
  orders: ShopifyOrder[];
  /** The order's fulfillments so far, to number the new one (`#1001.1`, `#1001.2`). */
  fulfillmentsOf(orderId: number): ShopifyFulfillment[];
  nextId: () => number;
}

/** Which fulfillment order lines ship how many units, or why the request cannot ship them. */
function takeLines(
  input: z.infer<typeof fulfillmentSchema>,
  ctx: FulfillmentContext,
): Array<{ fo: ShopifyFulfillmentOrder; line: FulfillmentOrderLine; quantity: number }> | string {
  const taken: Array<{
    fo: ShopifyFulfillmentOrder;
    line: FulfillmentOrderLine;
    quantity: number;
  }> = [];
  for (const group of input.line_items_by_fulfillment_order) {
    const fo = ctx.fulfillmentOrders.find((f) => f.id === group.fulfillment_order_id);
    if (!fo) return `Fulfillment order ${group.fulfillment_order_id} does not exist`;
    if (fo.status === 'closed') return `Fulfillment order ${fo.id} is already fulfilled`;
    const asked =
      group.fulfillment_order_line_items ??
      fo.line_items.map((l) => ({ id: l.id, quantity: l.fulfillable_quantity }));
    for (const item of asked) {
      const line = fo.line_items.find((l) => l.id === item.id);
      if (!line) return `Fulfillment order line item ${item.id} does not exist`;
      if (item.quantity > line.fulfillable_quantity) {
        return `Fulfillment order line item ${item.id} has only ${line.fulfillable_quantity} to fulfill`;
      }
      if (item.quantity > 0) taken.push({ fo, line, quantity: item.quantity });
    }
  }
  const orderIds = new Set(taken.map((t) => t.fo.order_id));
  if (orderIds.size > 1) return 'All fulfillment orders must belong to the same order';
  if (taken.length === 0) return 'Nothing is left to fulfill';
  return taken;
}

/** Marks the order and its line items as Shopify shows them after a shipment. */
function markShipped(order: ShopifyOrder, shipped: Map<number, number>, now: string): void {
  for (const line of orderLines(order)) {
    const units = shipped.get(line.id) ?? 0;
    const left = Number(line.fulfillable_quantity ?? line.quantity) - units;
    line.fulfillable_quantity = left;
    if (units > 0 || left < line.quantity) {
      line.fulfillment_status = left === 0 ? 'fulfilled' : 'partial';
    }
  }
  const done = orderLines(order).every((l) => l.fulfillable_quantity === 0);
  order.fulfillment_status = done ? 'fulfilled' : 'partial';
  order.updated_at = now;
}

/** `POST fulfillments.json`: ships fulfillment order items and answers the fulfillment. */
export function createFulfillment(
  body: unknown,
  ctx: FulfillmentContext,
): { fulfillment: ShopifyFulfillment } | { refusal: FulfillmentRefusal } {
  const root = (body as { fulfillment?: unknown } | null)?.fulfillment;
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    return {
      refusal: {
        status: 400,
        body: { errors: { fulfillment: 'Required parameter missing or invalid' } },
      },
    };
  }
  const parsed = fulfillmentSchema.safeParse(root);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    return { refusal: { status: 422, body: { errors: messages } } };
  }
  const taken = takeLines(parsed.data, ctx);
  if (typeof taken === 'string') {
    const status = taken.endsWith('does not exist') ? 404 : 422;
    return { refusal: { status, body: { errors: [taken] } } };
  }
  const order = ctx.orders.find((o) => o.id === taken[0]!.fo.order_id)!;
  const now = shopifyTime(new Date());
  const shipped = new Map<number, number>();
  for (const { fo, line, quantity } of taken) {
    line.fulfillable_quantity -= quantity;
    shipped.set(line.line_item_id, (shipped.get(line.line_item_id) ?? 0) + quantity);
    const open = fo.line_items.some((l) => l.fulfillable_quantity > 0);
    fo.status = open ? 'in_progress' : 'closed';
    fo.updated_at = now;
  }
  markShipped(order, shipped, now);
  const tracking = parsed.data.tracking_info ?? {};
  const id = ctx.nextId();
  const fulfillment: ShopifyFulfillment = {
    id,
    admin_graphql_api_id: `gid://shopify/Fulfillment/${id}`,
    order_id: order.id,
    name: `${order.name}.${ctx.fulfillmentsOf(order.id).length + 1}`,
    status: 'success',
    service: 'manual',
    shipment_status: null,
    location_id: taken[0]!.fo.assigned_location_id ?? null,
    created_at: now,
    updated_at: now,
    tracking_company: tracking.company ?? null,
    tracking_number: tracking.number ?? null,
    tracking_numbers: tracking.number ? [tracking.number] : [],
    tracking_url: tracking.url ?? null,
    tracking_urls: tracking.url ? [tracking.url] : [],
    receipt: {},
    line_items: orderLines(order)
      .filter((l) => shipped.has(l.id))
      .map((l) => ({ ...l, quantity: shipped.get(l.id)! })),
  };
  return { fulfillment };
}
