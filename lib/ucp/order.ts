import { newId } from '../db/ids';
import { orderUcpBlock } from './capabilities';
import type { Checkout, Destination, Total } from './checkout/types';

/**
 * The UCP order body (order.json) of a completed checkout, as GET {base}/orders/{id} returns it
 * and orders.ucp keeps it: its line items (nothing fulfilled yet), one expectation per group
 * with an option chosen (to its destination, described by the option's title), no fulfillment
 * event and no adjustment yet, and the checkout's totals.
 */
export interface UcpOrder {
  ucp: ReturnType<typeof orderUcpBlock>;
  id: string;
  checkout_id: string;
  permalink_url: string;
  line_items: {
    id: string;
    item: Checkout['line_items'][number]['item'];
    quantity: { total: number; fulfilled: number };
    totals: Total[];
    status: 'processing' | 'partial' | 'fulfilled';
    parent_id?: string;
  }[];
  fulfillment: {
    expectations: {
      id: string;
      line_items: { id: string; quantity: number }[];
      method_type: 'shipping' | 'pickup';
      destination: Omit<Destination, 'id'>;
      description?: string;
    }[];
    events: Record<string, unknown>[];
  };
  adjustments: Record<string, unknown>[];
  totals: Total[];
}

function expectations(checkout: Checkout): UcpOrder['fulfillment']['expectations'] {
  return (checkout.fulfillment?.methods ?? []).flatMap((method) => {
    const destination = method.destinations?.find((d) => d.id === method.selected_destination_id);
    if (!destination) return [];
    const { id: _id, ...address } = destination;
    return method.groups.flatMap((group) => {
      const option = group.options.find((o) => o.id === group.selected_option_id);
      if (!option) return [];
      return [
        {
          id: newId('exp'),
          line_items: checkout.line_items
            .filter((l) => group.line_item_ids.includes(l.id))
            .map((l) => ({ id: l.id, quantity: l.quantity })),
          method_type: method.type,
          destination: address,
          description: option.title,
        },
      ];
    });
  });
}

export function buildUcpOrder(checkout: Checkout, orderId: string, permalinkUrl: string): UcpOrder {
  return {
    ucp: orderUcpBlock(),
    id: orderId,
    checkout_id: checkout.id,
    permalink_url: permalinkUrl,
    line_items: checkout.line_items.map((l) => ({
      id: l.id,
      item: l.item,
      quantity: { total: l.quantity, fulfilled: 0 },
      totals: l.totals,
      status: 'processing',
      ...(l.parent_id ? { parent_id: l.parent_id } : {}),
    })),
    fulfillment: { expectations: expectations(checkout), events: [] },
    adjustments: [],
    totals: checkout.totals,
  };
}
