import {
  findCheckoutOrder,
  placeCheckoutOrder,
  type CheckoutOrder,
} from '../../orders/checkout-order';
import type { OrderLine } from '../../contract/orders';
import type { OrderRow } from '../../orders/records';
import { newId } from '../../db/ids';
import { UcpError } from '../errors';
import { buildUcpOrder, type UcpOrder } from '../order';
import { handlerFor } from '../payment/handlers';
import { buildCheckout } from './build';
import { findItems, takeStock } from './catalogue';
import { fulfillmentChosen } from './fulfillment';
import { orderLines, orderPricing, orderShipping, orderTotal } from './order-input';
import type { CompleteCheckoutRequest } from './requests';
import type { UcpScope } from './service';
import {
  ensureModifiable,
  loadSession,
  moveStatus,
  saveSession,
  type SessionRow,
} from './sessions';
import type { Checkout } from './types';

/** A completion that stopped between its claim and its order is released after this. */
const STALLED_COMPLETION_MS = 5 * 60 * 1000;

/** The caller's profile the order is for, if any (checked by checkout-routes.ts). */
export type OrderPlacement = Pick<CheckoutOrder, 'profileId'>;

/** Called once a checkout's order is placed (the webhook outbox hooks in here). */
export type OrderPlacedHook = (
  scope: UcpScope,
  checkout: Checkout,
  order: UcpOrder,
) => Promise<void>;

function completed(checkout: Checkout, order: UcpOrder): Checkout {
  return {
    ...checkout,
    status: 'completed',
    order: { id: order.id, permalink_url: order.permalink_url },
  };
}

async function finalize(
  scope: UcpScope,
  row: SessionRow,
  checkout: Checkout,
  order: OrderRow,
  onPlaced: OrderPlacedHook,
): Promise<Checkout> {
  const ucpOrder = order.ucp as UcpOrder;
  const done = completed(checkout, ucpOrder);
  const moved = await scope.db.transaction(async (tx) => {
    const first = await moveStatus(
      tx,
      row.id,
      ['complete_in_progress'],
      'completed',
      done,
      order.id,
    );
    if (first) await onPlaced({ ...scope, db: tx }, done, ucpOrder);
    return first;
  });
  // Once per order, whichever request or read completes the checkout.
  if (moved) {
    const lines = order.lines as OrderLine[];
    await takeStock(
      scope.db,
      scope.store.id,
      lines.map((l) => ({ variantId: l.variant_id, quantity: l.quantity })),
    );
  }
  return done;
}

/**
 * A checkout left `complete_in_progress` by an earlier request follows its order: completed
 * once the store has it, back to ready once no order is coming. Returns the checkout as it is.
 */
export async function settleCompletion(
  scope: UcpScope,
  row: SessionRow,
  onPlaced: OrderPlacedHook,
): Promise<SessionRow> {
  if (row.status !== 'complete_in_progress') return row;
  const order = await findCheckoutOrder(scope.db, row.id);
  const checkout = row.checkout as Checkout;
  if (order?.status === 'created') {
    const done = await finalize(scope, row, checkout, order, onPlaced);
    return { ...row, status: 'completed', checkout: done, orderId: order.id };
  }
  if (!order && Date.now() - row.updatedAt.getTime() > STALLED_COMPLETION_MS) {
    const ready: Checkout = { ...checkout, status: 'ready_for_complete' };
    await moveStatus(scope.db, row.id, ['complete_in_progress'], 'ready_for_complete', ready);
    return { ...row, status: 'ready_for_complete', checkout: ready };
  }
  return row;
}

function pendingError(order: OrderRow): UcpError {
  return new UcpError(
    503,
    'ORDER_PENDING',
    `The store has not confirmed order ${order.id} yet: it is looked up again until it is found or provably absent; GET the checkout later`,
    'recoverable',
    { 'Retry-After': '5' },
  );
}

/**
 * POST .../complete: checks the checkout can be completed, claims it (one completion at a
 * time: a concurrent one is 409), takes the payment, then places the order at the store
 * through the order path. A declined payment or a refused order gives the checkout back
 * (ready_for_complete); an order the store may hold keeps it in progress until it is settled.
 */
export async function completeCheckout(
  scope: UcpScope,
  id: string,
  request: CompleteCheckoutRequest,
  baseUrl: string,
  onPlaced: OrderPlacedHook,
  placement: OrderPlacement,
): Promise<Checkout> {
  const row = await settleCompletion(
    scope,
    await loadSession(scope.db, scope.store.id, scope.caller, id),
    onPlaced,
  );
  if (row.status === 'complete_in_progress' && row.orderId) {
    const order = await findCheckoutOrder(scope.db, id);
    if (order) throw pendingError(order);
  }
  ensureModifiable(row, 'complete');
  const stored = row.checkout as Checkout;
  if (!fulfillmentChosen(stored.fulfillment?.methods)) {
    throw new UcpError(
      400,
      'FULFILLMENT_REQUIRED',
      'Fulfillment address and option must be selected before completion.',
      'requires_buyer_input',
    );
  }
  const handler = handlerFor(scope.settings.paymentHandlers, request.payment_data.handler_id);
  const checkout = await buildCheckout({
    ...scope,
    id,
    expiresAt: row.expiresAt,
    previous: stored,
    request: {},
  });
  if (JSON.stringify(checkout.totals) !== JSON.stringify(stored.totals)) {
    await saveSession(scope.db, id, checkout);
    throw new UcpError(
      409,
      'CHECKOUT_CHANGED',
      'Prices or shipping changed since the checkout was last shown: review it and complete again',
      'requires_buyer_review',
    );
  }
  const paying: Checkout = {
    ...checkout,
    status: 'complete_in_progress',
    payment: { ...checkout.payment, selected_instrument_id: request.payment_data.id },
  };
  if (
    !(await moveStatus(
      scope.db,
      id,
      ['ready_for_complete', 'incomplete'],
      'complete_in_progress',
      paying,
    ))
  ) {
    throw new UcpError(409, 'CHECKOUT_COMPLETING', 'This checkout is already being completed');
  }
  const release = () =>
    moveStatus(scope.db, id, ['complete_in_progress'], 'ready_for_complete', checkout);
  const total = checkout.totals.find((t) => t.type === 'total')!.amount;
  const payment = await handler.authorize({
    checkoutId: id,
    amount: total,
    currency: checkout.currency,
    instrument: request.payment_data,
  });
  if (!payment.authorized) {
    await release();
    throw payment.error;
  }
  const orderId = newId('ord');
  const ucpOrder = buildUcpOrder(paying, orderId, `${baseUrl}/orders/${orderId}`);
  const items = await findItems(
    scope.db,
    scope.store.id,
    checkout.line_items.map((l) => l.item.id),
  );
  const lines = orderLines(checkout, items);
  const placed = await placeCheckoutOrder(scope.db, {
    id: orderId,
    store: scope.store,
    checkoutId: id,
    developerId: scope.caller.developerId,
    agentProfile: scope.caller.agentProfile,
    ...placement,
    lines,
    shipping: orderShipping(checkout),
    pricing: orderPricing(checkout, lines),
    totalPrice: orderTotal(checkout),
    ucp: ucpOrder,
  });
  if (placed.state === 'created') {
    return finalize(
      scope,
      { ...row, status: 'complete_in_progress' },
      paying,
      placed.order,
      onPlaced,
    );
  }
  if (placed.state === 'pending') {
    await moveStatus(
      scope.db,
      id,
      ['complete_in_progress'],
      'complete_in_progress',
      paying,
      placed.order.id,
    );
    throw pendingError(placed.order);
  }
  // A real processor's authorization would be voided here: the mock took nothing.
  await release();
  throw new UcpError(
    placed.error.status === 409 ? 409 : 502,
    'ORDER_FAILED',
    placed.error.message,
    'recoverable',
  );
}
