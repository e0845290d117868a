import { HTTPError } from 'ky';
import { storeHost } from './store-host';
import type { ShippingRecord } from '../contract/shipping';
import { platformSettings } from './settings';
import { listFulfillments, shipOrder } from './shopify-fulfillments';
import { readRules } from './shopify-rules';
import { readStock } from './shopify-stock';
import {
  NOT_SENT_CODES,
  networkCode,
  nextPage,
  orderClient,
  readClient,
  shopifyErrors,
  transportReason,
} from './shopify-http';
import type {
  PlatformLookupResult,
  PlatformOrderRequest,
  PlatformPricing,
  PlatformOrderResult,
  StoreConnection,
  StorePlatform,
  VerifyResult,
} from './types';

/** Shopify through its Admin REST API (clients and their retries: shopify-http.ts). */

async function verify(connection: StoreConnection): Promise<VerifyResult> {
  const settings = platformSettings();
  let body: {
    shop?: { name?: string; domain?: string; myshopify_domain?: string; currency?: unknown };
  };
  try {
    body = await readClient(connection, settings).get('shop.json').json();
  } catch (error) {
    if (error instanceof HTTPError) {
      const { status } = error.response;
      const detail = await shopifyErrors(error.response);
      if (status === 401)
        return { ok: false, definitive: true, reason: `Shopify refused the token: ${detail}` };
      if (status === 402 || status === 403 || status === 404 || status === 423) {
        return {
          ok: false,
          definitive: true,
          reason: `Shopify answered ${status} for shop.json: ${detail}`,
        };
      }
      return {
        ok: false,
        definitive: false,
        reason: `Shopify answered ${status} for shop.json: ${detail}`,
      };
    }
    return {
      ok: false,
      definitive: false,
      reason: `Could not reach ${connection.baseUrl}: ${transportReason(error, settings)}`,
    };
  }
  const shop = body.shop;
  if (!shop?.name) {
    return { ok: false, definitive: true, reason: 'shop.json answered without a shop' };
  }
  const expected = storeHost(connection.domain) ?? connection.domain;
  const domains = [shop.domain, shop.myshopify_domain]
    .map((d) => (d ? storeHost(d) : undefined))
    .filter((d): d is string => Boolean(d));
  if (!domains.includes(expected)) {
    return {
      ok: false,
      definitive: true,
      reason: `The token belongs to shop ${domains.join(' / ') || shop.name}, not ${expected}`,
    };
  }
  const currency =
    typeof shop.currency === 'string' && /^[A-Z]{3}$/.test(shop.currency)
      ? shop.currency
      : undefined;
  return { ok: true, shopName: shop.name, shopDomain: expected, currency };
}

function shopifyAddress(shipping: ShippingRecord) {
  return {
    first_name: shipping.first_name,
    last_name: shipping.last_name,
    address1: shipping.address_1,
    address2: shipping.address_2 ?? '',
    city: shipping.city,
    province_code: shipping.province_code,
    country_code: shipping.country_code,
    zip: shipping.postal_code,
    phone: shipping.phone,
  };
}

/** Shopify ids are integers; one that fits a JSON number exactly is sent as one. */
function shopifyId(id: string): string | number {
  const n = Number(id);
  return /^\d+$/.test(id) && Number.isSafeInteger(n) ? n : id;
}

/**
 * A checkout's agreed prices in the Admin API's order fields: its currency, its discount codes
 * (Shopify takes the amount of each: `fixed_amount` off the items, `shipping` off a shipping
 * rate up to the amount) and its shipping line.
 */
function shopifyPricing(pricing: PlatformPricing) {
  return {
    currency: pricing.currency,
    ...(pricing.discounts.length
      ? {
          discount_codes: pricing.discounts.map((d) => ({
            code: d.code,
            amount: d.amount,
            type: d.target === 'shipping' ? 'shipping' : 'fixed_amount',
          })),
        }
      : {}),
    ...(pricing.shippingLine ? { shipping_lines: [pricing.shippingLine] } : {}),
  };
}

async function createOrder(
  connection: StoreConnection,
  order: PlatformOrderRequest,
): Promise<PlatformOrderResult> {
  const settings = platformSettings();
  const payload = {
    order: {
      line_items: order.lines.map((l, i) => ({
        variant_id: shopifyId(l.variantId),
        quantity: l.quantity,
        ...(order.pricing ? { price: order.pricing.linePrices[i] } : {}),
      })),
      ...(order.pricing ? shopifyPricing(order.pricing) : {}),
      // A UCP buyer may give neither: Shopify takes an order without them.
      ...(order.email ? { email: order.email } : {}),
      ...(order.shipping.phone ? { phone: order.shipping.phone } : {}),
      shipping_address: shopifyAddress(order.shipping),
      billing_address: shopifyAddress(order.shipping),
      financial_status: 'pending',
      send_receipt: false,
      send_fulfillment_receipt: false,
      inventory_behaviour: 'decrement_obeying_policy',
      tags: order.reference,
      note_attributes: [{ name: 'order_reference', value: order.reference }],
    },
  };
  let body: { order?: { id?: number | string } };
  try {
    body = await orderClient(connection, settings).post('orders.json', { json: payload }).json();
  } catch (error) {
    if (error instanceof HTTPError) {
      const { status } = error.response;
      const detail = await shopifyErrors(error.response);
      if (status === 401) return { outcome: 'unauthorized', reason: detail };
      if (status === 422 || status === 400 || status === 402 || status === 403 || status === 404) {
        return { outcome: 'rejected', reason: `Shopify refused the order (${status}): ${detail}` };
      }
      if (status === 429) {
        return {
          outcome: 'unavailable',
          mayExist: false,
          reason: `Shopify kept rate-limiting the order (429): ${detail}`,
        };
      }
      return {
        outcome: 'unavailable',
        mayExist: true,
        reason: `Shopify failed while creating the order (${status}): ${detail}`,
      };
    }
    const code = networkCode(error);
    return {
      outcome: 'unavailable',
      mayExist: !(error instanceof TypeError && NOT_SENT_CODES.has(code ?? '')),
      reason: `Shopify could not be reached: ${transportReason(error, settings)}`,
    };
  }
  const id = body.order?.id;
  if (id === undefined || id === null) {
    return {
      outcome: 'unavailable',
      mayExist: true,
      reason: 'Shopify answered the order creation without an order id',
    };
  }
  return { outcome: 'created', platformOrderId: String(id) };
}

/** Orders are looked up in a window a little wider than the clocks of two machines may differ. */
const CLOCK_SKEW_MS = 5 * 60_000;

type OrderList = { orders?: Array<{ id?: number | string; tags?: string }> };

function carriesReference(order: { tags?: string }, reference: string): boolean {
  return (order.tags ?? '')
    .split(',')
    .map((t) => t.trim())
    .includes(reference);
}

/**
 * Every order created since `placedAfter` (less the clock skew) is read, newest first, page by
 * page through Shopify's cursor links until the one tagged with `reference` turns up or the
 * last page has been read: only then is the order known to be absent.
 */
async function findOrder(
  connection: StoreConnection,
  reference: string,
  placedAfter: Date,
): Promise<PlatformLookupResult> {
  const settings = platformSettings();
  const api = readClient(connection, settings);
  let searchParams: URLSearchParams | undefined = new URLSearchParams({
    status: 'any',
    limit: '250',
    fields: 'id,tags',
    created_at_min: new Date(placedAfter.getTime() - CLOCK_SKEW_MS).toISOString(),
  });
  const seen = new Set<string>();
  try {
    while (searchParams) {
      const response = await api.get('orders.json', { searchParams });
      const body: OrderList = await response.json();
      const match = (body.orders ?? []).find((o) => carriesReference(o, reference));
      if (match?.id !== undefined) return { found: true, platformOrderId: String(match.id) };
      searchParams = nextPage(response);
      const cursor = searchParams?.get('page_info') ?? '';
      if (searchParams && seen.has(cursor)) {
        return { found: undefined, reason: 'Shopify linked a page of orders already read' };
      }
      seen.add(cursor);
    }
    return { found: false };
  } catch (error) {
    const reason =
      error instanceof HTTPError
        ? `Shopify answered ${error.response.status}: ${await shopifyErrors(error.response)}`
        : transportReason(error, settings);
    return { found: undefined, reason };
  }
}

export const shopify: StorePlatform = {
  verify,
  createOrder,
  findOrder,
  readStock,
  readRules,
  listFulfillments,
  shipOrder,
};
