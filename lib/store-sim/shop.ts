import { adminRules, type AdminRules, type ShopRules } from './admin-rules';
import { buildCatalogue, type Catalogue, type ShopifyProductInput } from './catalogue';
import {
  createFulfillment,
  openFulfillmentOrder,
  type FulfillmentRefusal,
  type ShopifyFulfillment,
  type ShopifyFulfillmentOrder,
} from './fulfillments';
import { createOrder, type OrderRefusal, type ShopifyOrder } from './orders';

export interface ImageFile {
  contentType: string;
  body: Uint8Array<ArrayBuffer> | string;
}

export interface ShopOptions {
  /** The shop's domain; it also names the shop's path prefix `/shops/{domain}`. */
  domain: string;
  name?: string;
  /** The Admin API token (header X-Shopify-Access-Token); `shpat_simulator` when absent. */
  accessToken?: string;
  /** Products in Shopify's public (`/products.json`) or Admin shape. */
  products?: ShopifyProductInput[];
  /** Checkout rules, served by the Admin API's shipping zones, price rules and customers. */
  rules?: ShopRules;
  currency?: string;
  email?: string;
  /** A folder served under `{shopUrl}/cdn/`. */
  imagesDir?: string;
  /** Renders paths under `{shopUrl}/cdn/` (the part after `/cdn/`); undefined = 404. */
  imageRenderer?: (path: string) => Promise<ImageFile | undefined>;
}

export const DEFAULT_ACCESS_TOKEN = 'shpat_simulator';

/** One simulated shop: its catalogue as the storefront shows it and the orders it received. */
export class SimShop {
  readonly domain: string;
  readonly name: string;
  readonly accessToken: string;
  readonly currency: string;
  readonly email: string;
  readonly createdAt = new Date();
  /** The products as given, in the Admin or public shape. */
  private products: ShopifyProductInput[];
  catalogue: Catalogue;
  adminRules: AdminRules;
  orders: ShopifyOrder[] = [];
  fulfillmentOrders: ShopifyFulfillmentOrder[] = [];
  fulfillments: ShopifyFulfillment[] = [];

  constructor(
    readonly options: ShopOptions,
    readonly shopUrl: string,
    readonly id: number,
    private readonly nextId: () => number,
  ) {
    this.domain = options.domain;
    this.name = options.name ?? options.domain;
    this.accessToken = options.accessToken ?? DEFAULT_ACCESS_TOKEN;
    this.currency = options.currency ?? 'USD';
    this.email = options.email ?? `owner@${options.domain}`;
    this.products = options.products ?? [];
    this.catalogue = buildCatalogue(this.products, shopUrl);
    this.adminRules = adminRules(options.rules ?? {}, nextId, this.createdAt);
  }

  setRules(rules: ShopRules): void {
    this.adminRules = adminRules(rules, this.nextId, this.createdAt);
  }

  setProducts(products: ShopifyProductInput[]): void {
    this.products = products;
    this.catalogue = buildCatalogue(products, this.shopUrl);
  }

  /** Back to the start-up catalogue, stock and rules, with no orders. */
  reset(): void {
    this.setProducts(this.options.products ?? []);
    this.setRules(this.options.rules ?? {});
    this.orders = [];
    this.fulfillmentOrders = [];
    this.fulfillments = [];
  }

  placeOrder(body: unknown): { order: ShopifyOrder } | { refusal: OrderRefusal } {
    const result = createOrder(body, {
      catalogue: this.catalogue,
      currency: this.currency,
      shopUrl: this.shopUrl,
      orderNumber: 1001 + this.orders.length,
      nextId: this.nextId,
    });
    if ('order' in result) {
      this.orders.push(result.order);
      this.takeStock(result.order);
      this.fulfillmentOrders.push(openFulfillmentOrder(result.order, this.id, this.nextId));
    }
    return result;
  }

  /** An order takes its units from the stock; a variant whose last unit went sells out. */
  private takeStock(order: ShopifyOrder): void {
    for (const line of order.line_items as Array<{ variant_id: unknown; quantity: number }>) {
      const variant = this.catalogue.variants.get(String(line.variant_id));
      if (variant?.stock == null) continue;
      variant.stock -= line.quantity;
      variant.storefront.available = variant.stock > 0;
    }
  }

  fulfill(body: unknown): { fulfillment: ShopifyFulfillment } | { refusal: FulfillmentRefusal } {
    const result = createFulfillment(body, {
      fulfillmentOrders: this.fulfillmentOrders,
      orders: this.orders,
      fulfillmentsOf: (orderId) => this.fulfillmentsOf(orderId),
      nextId: this.nextId,
    });
    if ('fulfillment' in result) this.fulfillments.push(result.fulfillment);
    return result;
  }

  /**
   * The Admin API's products: every product as given, drafts included, each stock-tracked
   * variant with the `inventory_quantity` that orders have left it.
   */
  adminProducts(): Record<string, unknown>[] {
    return this.products.map((product) => ({
      ...product,
      variants: (Array.isArray(product.variants) ? product.variants : []).map((v: unknown) => {
        const variant = v as Record<string, unknown>;
        const stock = this.catalogue.variants.get(String(variant.id))?.stock;
        return stock == null ? variant : { ...variant, inventory_quantity: stock };
      }),
    }));
  }

  fulfillmentsOf(orderId: number): ShopifyFulfillment[] {
    return this.fulfillments.filter((f) => f.order_id === orderId);
  }

  /** The Admin API's `shop.json` resource. */
  info(): Record<string, unknown> {
    const handle = this.domain.split('.')[0] ?? this.domain;
    const created = this.createdAt.toISOString().replace(/\.\d{3}Z$/, '+00:00');
    return {
      id: this.id,
      name: this.name,
      email: this.email,
      customer_email: this.email,
      domain: this.domain,
      myshopify_domain: `${handle}.myshopify.com`,
      currency: this.currency,
      enabled_presentment_currencies: [this.currency],
      money_format: '${{amount}}',
      money_with_currency_format: `\${{amount}} ${this.currency}`,
      primary_locale: 'en',
      country_code: 'US',
      timezone: '(GMT+00:00) UTC',
      iana_timezone: 'UTC',
      plan_name: 'partner_test',
      plan_display_name: 'Developer Preview',
      password_enabled: false,
      taxes_included: false,
      weight_unit: 'kg',
      shop_owner: this.name,
      created_at: created,
      updated_at: created,
    };
  }
}
