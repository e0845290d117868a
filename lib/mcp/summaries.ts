import { centsToString } from '../catalog/decimal';
import type {
  UcpCheckout,
  OrderRecord,
  SearchVariant,
  ProfileRecord,
  SearchProduct,
  ShippingRecord,
  StyleRecord,
} from '../api-client';

/**
 * The text half of each tool answer: a few lines that carry the ids and facts an agent needs for
 * its next step, for clients that show a model the text and not the structured content.
 */

const VARIANTS_SHOWN = 5;

export function productLine(p: SearchProduct): string {
  const variants = p.variants
    .slice(0, VARIANTS_SHOWN)
    .map((v) => `${v.id} "${v.title}" ${v.price}${v.available ? '' : ' (unavailable)'}`);
  if (p.variants.length > VARIANTS_SHOWN)
    variants.push(`${p.variants.length - VARIANTS_SHOWN} more`);
  return `- ${p.title}: product ${p.id} in ${p.store_name} (${p.store_id}); variants ${variants.join(', ')}`;
}

export function searchSummary(results: SearchProduct[]): string {
  if (!results.length) return 'No products matched (NO_RESULTS_FOUND).';
  return [`Found ${results.length} product(s):`, ...results.map(productLine)].join('\n');
}

export function checkoutSummary(link: {
  product_title: string;
  variant: SearchVariant;
  checkout_url: string;
  shipping_prefilled: boolean;
}): string {
  const what = `${link.product_title} "${link.variant.title}" at ${link.variant.price}${link.variant.available ? '' : ' (unavailable)'}`;
  const shipping = link.shipping_prefilled
    ? "with the profile's shipping address pre-filled"
    : 'without shipping details: the profile has no address yet (set_shipping_address pre-fills it)';
  return `Checkout link for ${what}, ${shipping}: ${link.checkout_url}`;
}

function addressLine(s: ShippingRecord): string {
  return `${s.first_name} ${s.last_name}, ${s.address_1}, ${s.city} ${s.province_code} ${s.postal_code}, ${s.country_code}`;
}

export function profileSummary(p: ProfileRecord): string {
  const style = p.styles[0];
  return [
    `Profile ${p.id}.`,
    style ? `Style ${style.id}: "${style.text}".` : 'No style yet (set_style adds one).',
    p.shipping
      ? `Ships to ${addressLine(p.shipping)} (address ${p.shipping.id}).`
      : 'No shipping address yet (set_shipping_address adds one; buy needs it).',
  ].join(' ');
}

export function styleSummary(code: string, style: StyleRecord): string {
  const verb = code === 'STYLE_CREATED' ? 'created' : 'updated';
  return `Style ${style.id} ${verb} for profile ${style.profile_id}: "${style.text}". Searches with this profile_id are now personalized by it.`;
}

export function shippingSummary(code: string, shipping: ShippingRecord): string {
  const verb = code === 'SHIPPING_CREATED' ? 'created' : 'updated';
  return `Shipping address ${shipping.id} ${verb} for profile ${shipping.profile_id}: ${addressLine(shipping)}.`;
}

export function orderSummary(o: OrderRecord): string {
  const lines = o.lines
    .map((l) => `${l.quantity} x ${l.title} "${l.variant_title}" at ${l.price}`)
    .join(', ');
  const outcome =
    o.status === 'failed'
      ? `failed (${o.error_code}: ${o.error})`
      : o.status === 'created'
        ? `created at the store as ${o.platform_order_id}`
        : 'pending: the store has not answered yet';
  return `Order ${o.id} for profile ${o.user_id} in store ${o.store_id}: ${outcome}. ${lines}; total ${o.total_price ?? 'unknown'}.`;
}

export function ordersSummary(orders: OrderRecord[]): string {
  if (!orders.length) return 'No orders.';
  return [
    `${orders.length} order(s), newest first:`,
    ...orders.map((o) => `- ${orderSummary(o)}`),
  ].join('\n');
}

/** Minor units as the API's prices read: "12.50 USD". */
function money(amount: number, currency: string): string {
  return `${centsToString(BigInt(amount))} ${currency}`;
}

/** What a UCP checkout holds and what it waits for, so an agent knows its next call. */
export function ucpCheckoutSummary(c: UcpCheckout): string {
  const lines = c.line_items
    .map(
      (l) =>
        `${l.quantity} x ${l.item.title} (item ${l.item.id}) at ${money(l.item.price, c.currency)}`,
    )
    .join(', ');
  const options = (c.fulfillment?.methods ?? []).flatMap((m) =>
    m.groups.flatMap((g) =>
      g.options.map((o) => {
        const cost = o.totals.find((t) => t.type === 'total')?.amount ?? 0;
        const chosen = o.id === g.selected_option_id ? ' (selected)' : '';
        return `${o.id} "${o.title}" ${money(cost, c.currency)}${chosen} [method ${m.id}, group ${g.id}]`;
      }),
    ),
  );
  const totals = c.totals.map((t) => `${t.type} ${money(t.amount, c.currency)}`).join(', ');
  const handlers = c.payment.handlers.map((h) => h.id).join(', ') || 'none';
  return [
    `Checkout ${c.id}: ${c.status}.`,
    `${lines}.`,
    options.length
      ? `Shipping options: ${options.join('; ')}.`
      : 'No shipping options yet (a destination picks them).',
    c.discounts?.applied.length
      ? `Discounts: ${c.discounts.applied.map((d) => `${d.code} -${money(d.amount, c.currency)}`).join(', ')}.`
      : '',
    `Totals: ${totals}.`,
    ...c.messages.map((m) => `${m.type} ${m.code}: ${m.content}`),
    c.order ? `Order ${c.order.id}: ${c.order.permalink_url}` : `Payment handlers: ${handlers}.`,
  ]
    .filter(Boolean)
    .join('\n');
}
