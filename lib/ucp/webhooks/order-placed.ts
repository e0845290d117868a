import type { OrderPlacedHook } from '../checkout/complete';
import { enqueueOrderEvent } from './outbox';

/** A completed checkout's order, announced to its agent as `order_placed` (in the completion's transaction). */
export const announceOrderPlaced: OrderPlacedHook = (scope, checkout, order) =>
  enqueueOrderEvent(scope.db, {
    storeId: scope.store.id,
    orderId: order.id,
    eventType: 'order_placed',
    agentProfileUrl: scope.caller.agentProfile,
    checkoutId: checkout.id,
    order,
  });
