import type { ShippingRecord } from '../contract/shipping';
import type { StoreRules } from '../contract/store-rules';

/** Where and as whom the service talks to one store's platform. */
export interface StoreConnection {
  /** Origin of the store's Admin API, e.g. https://example.myshopify.com. */
  baseUrl: string;
  /** The domain the store is registered under, which the platform must confirm. */
  domain: string;
  token: string;
}

export type VerifyResult =
  | {
      ok: true;
      shopName: string;
      shopDomain: string;
      /** The shop's currency (ISO 4217), when the platform states one. */
      currency?: string;
    }
  /**
   * `definitive`: the platform answered and refused (bad token, another shop). Otherwise it could
   * not be asked (timeout, 5xx, rate limit), which says nothing about the token.
   */
  | { ok: false; definitive: boolean; reason: string };

export interface PlatformOrderLine {
  variantId: string;
  quantity: number;
}

/**
 * Prices a checkout agreed with the buyer (UCP): each line's unit price, the discounts and the
 * shipping line, as decimal strings of the store currency. A /buy order has none: the store
 * prices it.
 */
export interface PlatformPricing {
  currency: string;
  /** Unit price per line, in the order of `lines`. */
  linePrices: string[];
  /** Each applied code's amount, off the items or (`shipping`) off the shipping line. */
  discounts: { code: string; amount: string; target: 'items' | 'shipping' }[];
  shippingLine: { title: string; code: string; price: string } | null;
}

export interface PlatformOrderRequest {
  /** Our order id; the platform order carries it so staff and reconciliation can find it. */
  reference: string;
  lines: PlatformOrderLine[];
  email: string;
  shipping: ShippingRecord;
  pricing?: PlatformPricing;
}

export type PlatformOrderResult =
  | { outcome: 'created'; platformOrderId: string }
  /** The platform refused the token: no order exists. */
  | { outcome: 'unauthorized'; reason: string }
  /** The platform refused the order's content (unknown variant, sold out): no order exists. */
  | { outcome: 'rejected'; reason: string }
  /**
   * The platform could not be used. `mayExist` is true when the request may have reached it
   * (timeout, dropped connection, 5xx), so an order may exist there despite the failure.
   */
  | { outcome: 'unavailable'; reason: string; mayExist: boolean };

export type PlatformLookupResult =
  | { found: true; platformOrderId: string }
  | { found: false }
  /** The platform could not be asked: nothing is known. */
  | { found: undefined; reason: string };

/** A shipment the platform made of an order's items, with its tracking when it has one. */
export interface PlatformFulfillment {
  id: string;
  /** ISO 8601. */
  createdAt: string;
  trackingNumber: string | null;
  trackingUrl: string | null;
  carrier: string | null;
  lines: { variantId: string; productId: string | null; quantity: number }[];
}

export type PlatformFulfillments =
  { ok: true; fulfillments: PlatformFulfillment[] } | { ok: false; reason: string };

/** Units each variant may sell: null when the platform does not limit it by stock. */
export type PlatformStock =
  | { ok: true; stock: { variantId: string; quantity: number | null }[] }
  | { ok: false; reason: string };

/**
 * A store's checkout rules as its platform serves them, in the shapes `store import-rules` writes
 * (money in minor units, ids as the platform gives them). A part is absent when its read failed
 * (`failed` says why: a missing access scope fails one resource, not the others). `skipped` names
 * what was read and left out because a checkout here could not honour it (a code limited to some
 * customers, a rate for some order weights), each with the reason.
 */
export interface PlatformRules {
  shippingRates?: NonNullable<StoreRules['shippingRates']>;
  discounts?: NonNullable<StoreRules['discounts']>;
  promotions?: NonNullable<StoreRules['promotions']>;
  customers?: NonNullable<StoreRules['customers']>;
  addresses?: NonNullable<StoreRules['addresses']>;
  skipped: string[];
  failed: string[];
}

export interface PlatformTracking {
  number: string;
  url?: string;
  carrier?: string;
}

/** One store platform (Shopify, ...): what verification, purchase and shipments need from it. */
export interface StorePlatform {
  verify(connection: StoreConnection): Promise<VerifyResult>;
  createOrder(
    connection: StoreConnection,
    order: PlatformOrderRequest,
  ): Promise<PlatformOrderResult>;
  /** Finds the order carrying `reference`, placed no earlier than `placedAfter`. */
  findOrder(
    connection: StoreConnection,
    reference: string,
    placedAfter: Date,
  ): Promise<PlatformLookupResult>;
  /** Every variant's stock, as the platform's Admin API shows it. */
  readStock(connection: StoreConnection): Promise<PlatformStock>;
  /**
   * Shipping rates, discount codes, free-shipping promotions (automatic: none for a platform
   * whose discounts all need a code) and customers with addresses.
   */
  readRules(connection: StoreConnection): Promise<PlatformRules>;
  /** The order's shipments so far (none: not shipped yet). */
  listFulfillments(
    connection: StoreConnection,
    platformOrderId: string,
  ): Promise<PlatformFulfillments>;
  /**
   * Has the store ship every item of the order still to ship, as its staff would: for tests
   * (UCP's simulate-shipping); a real store ships on its own.
   */
  shipOrder(
    connection: StoreConnection,
    platformOrderId: string,
    tracking: PlatformTracking,
  ): Promise<{ ok: true } | { ok: false; reason: string }>;
}
