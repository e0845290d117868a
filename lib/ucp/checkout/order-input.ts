import { centsToString } from '../../catalog/decimal';
import type { OrderLine } from '../../contract/orders';
import type { ShippingRecord } from '../../contract/shipping';
import type { PlatformPricing } from '../../platforms';
import type { CatalogueItem } from './catalogue';
import { FULFILLMENT_PATH } from './totals';
import type { Checkout } from './types';

const money = (minor: number) => centsToString(BigInt(minor));

/** The order's lines as the order path records them (decimal prices, catalogue ids). */
export function orderLines(checkout: Checkout, items: Map<string, CatalogueItem>): OrderLine[] {
  return checkout.line_items.map((line) => {
    const item = items.get(line.item.id)!;
    return {
      variant_id: item.variantId,
      product_id: item.productId,
      title: item.title,
      variant_title: item.variantTitle,
      quantity: line.quantity,
      price: item.priceText,
    };
  });
}

/** Where the store ships it: the selected destination, with the buyer's name and e-mail. */
export function orderShipping(checkout: Checkout): ShippingRecord {
  const method = checkout.fulfillment?.methods.find((m) => m.selected_destination_id);
  const d = method?.destinations?.find((x) => x.id === method.selected_destination_id);
  const buyer = checkout.buyer ?? {};
  const fullName = (d?.full_name ?? buyer.full_name ?? '').trim();
  const [first = '', ...rest] = fullName.split(/\s+/);
  return {
    id: d?.id ?? '',
    profile_id: '',
    first_name: d?.first_name ?? buyer.first_name ?? first,
    last_name: d?.last_name ?? buyer.last_name ?? rest.join(' '),
    email: buyer.email ?? '',
    phone: d?.phone_number ?? buyer.phone_number ?? '',
    address_1: d?.street_address ?? '',
    address_2: d?.extended_address ?? null,
    city: d?.address_locality ?? '',
    country_code: d?.address_country ?? '',
    province_code: d?.address_region ?? '',
    postal_code: d?.postal_code ?? '',
  };
}

/** The prices the buyer agreed to, for the store's order. */
export function orderPricing(checkout: Checkout, lines: OrderLine[]): PlatformPricing {
  const chosen = (checkout.fulfillment?.methods ?? []).flatMap((m) =>
    m.groups.flatMap((g) => g.options.filter((o) => o.id === g.selected_option_id)),
  );
  const shipping = checkout.totals.find((t) => t.type === 'fulfillment');
  return {
    currency: checkout.currency,
    linePrices: lines.map((l) => l.price),
    discounts: (checkout.discounts?.applied ?? []).map((d) => ({
      code: d.code,
      amount: money(d.amount),
      target: d.allocations.every((a) => a.path === FULFILLMENT_PATH) ? 'shipping' : 'items',
    })),
    shippingLine:
      chosen.length && shipping
        ? {
            title: chosen.map((o) => o.title).join(', '),
            code: chosen.map((o) => o.id).join(','),
            price: money(shipping.amount),
          }
        : null,
  };
}

export function orderTotal(checkout: Checkout): string {
  return money(checkout.totals.find((t) => t.type === 'total')?.amount ?? 0);
}
