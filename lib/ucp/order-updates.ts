import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { orders } from '../db/schema';
import { UcpError } from './errors';
import type { UcpOrder } from './order';

/**
 * PUT {base}/orders/{id}: the caller sends the order back with fulfillment events and
 * adjustments added (the conformance suite sends the whole order it read, plus its new entries).
 * Both lists are append-only (order.md): an entry whose id the order has is kept as it was, a new
 * one is appended when it is valid (fulfillment_event.json, adjustment.json) and refused whole
 * with 422 otherwise; the rest of the body (line items, totals) is the business's and is not
 * taken from the caller.
 */

const lineRef = z.object({ id: z.string().min(1).max(255), quantity: z.int().min(1) });
const timestamp = z.iso.datetime({ offset: true });

export const fulfillmentEvent = z.looseObject({
  id: z.string().min(1).max(255),
  occurred_at: timestamp,
  type: z.string().min(1).max(64),
  line_items: z.array(lineRef).max(1000),
  tracking_number: z.string().max(255).optional(),
  tracking_url: z.url().max(2048).optional(),
  carrier: z.string().max(255).optional(),
  description: z.string().max(2000).optional(),
});

export const adjustment = z.looseObject({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(64),
  occurred_at: timestamp,
  status: z.enum(['pending', 'completed', 'failed']),
  line_items: z.array(lineRef).max(1000).optional(),
  amount: z.int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER).optional(),
  description: z.string().max(2000).optional(),
});

/** The parts of the sent order that are read; a body of another shape is 422 (the suite's). */
const orderUpdateShape = z.looseObject({
  id: z.string().optional(),
  fulfillment: z.looseObject({ events: z.array(z.unknown()).max(1000).nullish() }).nullish(),
  adjustments: z.array(z.unknown()).max(1000).nullish(),
});

export const orderUpdateRequest = z.looseObject({}).meta({
  id: 'UcpOrderUpdate',
  description:
    'The order (order.json) with fulfillment events and adjustments added; `fulfillment.events` and `adjustments` must be arrays',
});

/** The entries of `sent` the order lacks, each checked; 422 names the first invalid one. */
function newEntries<T extends { id: string; line_items?: { id: string; quantity: number }[] }>(
  sent: unknown[] | null | undefined,
  existing: Record<string, unknown>[],
  schema: z.ZodType<T>,
  what: string,
  order: UcpOrder,
): T[] {
  const known = new Set(existing.map((e) => e.id));
  const lines = new Map(order.line_items.map((l) => [l.id, l.quantity.total]));
  const added: T[] = [];
  (sent ?? []).forEach((entry, index) => {
    const id = (entry as { id?: unknown } | null)?.id;
    if (typeof id === 'string' && known.has(id)) return;
    const parsed = schema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new UcpError(
        422,
        'INVALID_REQUEST',
        `${what}[${index}].${issue.path.join('.')}: ${issue.message}`,
      );
    }
    for (const ref of parsed.data.line_items ?? []) {
      const total = lines.get(ref.id);
      if (total === undefined || ref.quantity > total) {
        throw new UcpError(
          422,
          'INVALID_REQUEST',
          `${what}[${index}] names ${ref.quantity} of line item ${ref.id}, which the order ${total === undefined ? 'does not have' : `has ${total} of`}`,
        );
      }
    }
    known.add(parsed.data.id);
    added.push(parsed.data);
  });
  return added;
}

/** Appends the request's new events and adjustments to the order (under its row lock). */
export async function updateOrder(db: Db, orderId: string, body: unknown): Promise<UcpOrder> {
  const shape = orderUpdateShape.safeParse(body);
  if (!shape.success) {
    const issue = shape.error.issues[0]!;
    throw new UcpError(
      422,
      'INVALID_REQUEST',
      `${issue.path.join('.') || 'order'}: ${issue.message}`,
    );
  }
  const request = shape.data;
  if (request.id !== undefined && request.id !== orderId) {
    throw new UcpError(400, 'INVALID_REQUEST', `The body is order ${request.id}, not ${orderId}`);
  }
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    const order = row!.ucp as UcpOrder;
    const events = newEntries(
      request.fulfillment?.events,
      order.fulfillment.events,
      fulfillmentEvent,
      'fulfillment.events',
      order,
    );
    const adjustments = newEntries(
      request.adjustments,
      order.adjustments,
      adjustment,
      'adjustments',
      order,
    );
    if (events.length === 0 && adjustments.length === 0) return order;
    const updated: UcpOrder = {
      ...order,
      fulfillment: { ...order.fulfillment, events: [...order.fulfillment.events, ...events] },
      adjustments: [...order.adjustments, ...adjustments],
    };
    await tx
      .update(orders)
      .set({ ucp: updated, updatedAt: new Date() })
      .where(eq(orders.id, orderId));
    return updated;
  });
}
