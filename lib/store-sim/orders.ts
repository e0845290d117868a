import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { centsToString, totalPrice } from '../catalog/decimal';
import { onlyFields, pageInfoConflict, requestedFields } from './admin-query';
import { parseLimit, type Catalogue, type CatalogueVariant } from './catalogue';

/** An order in the Admin API's JSON shape. */
export type ShopifyOrder = Record<string, unknown> & {
  id: number;
  order_number: number;
  name: string;
};

/** Shopify's refusal: 400 for a missing `order` root, 422 with per-field messages otherwise. */
export type OrderRefusal =
  | { status: 400; body: { errors: Record<string, string> } }
  | { status: 422; body: { errors: Record<string, string[]> } };

export interface OrderContext {
  catalogue: Catalogue;
  currency: string;
  shopUrl: string;
  orderNumber: number;
  nextId: () => number;
}

const FINANCIAL_STATUSES = [
  'pending',
  'authorized',
  'partially_paid',
  'paid',
  'partially_refunded',
  'refunded',
  'voided',
] as const;

const addressSchema = z.looseObject({
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
  address1: z.string().nullish(),
  address2: z.string().nullish(),
  city: z.string().nullish(),
  province_code: z.string().nullish(),
  country_code: z.string().nullish(),
  zip: z.string().nullish(),
  phone: z.string().nullish(),
});
type Address = z.infer<typeof addressSchema>;

const orderSchema = z.looseObject({
  line_items: z
    .array(
      z.looseObject({
        variant_id: z.union([z.int(), z.string().trim().min(1)], 'Variant is invalid'),
        quantity: z
          .int('Quantity must be a whole number')
          .min(1, 'Quantity must be greater than or equal to 1'),
      }),
      "Line items can't be blank",
    )
    .min(1, "Line items can't be blank"),
  email: z.email('is invalid').nullish(),
  phone: z.string().nullish(),
  financial_status: z.enum(FINANCIAL_STATUSES, 'is not included in the list').optional(),
  shipping_address: addressSchema.nullish(),
  billing_address: addressSchema.nullish(),
  shipping_lines: z
    .array(z.looseObject({ title: z.string(), price: z.string().regex(/^\d+(\.\d{1,2})?$/) }))
    .optional(),
  discount_codes: z
    .array(
      z.object({
        code: z.string().min(1),
        amount: z.string().regex(/^\d+(\.\d{1,2})?$/),
        type: z.enum(['fixed_amount', 'percentage', 'shipping']).default('fixed_amount'),
      }),
    )
    .optional(),
  note: z.string().nullish(),
  tags: z.string().optional(),
  note_attributes: z.array(z.looseObject({ name: z.string(), value: z.unknown() })).optional(),
  source_name: z.string().optional(),
  test: z.boolean().optional(),
});

/** Shopify's timestamps: seconds precision with an offset. */
function shopifyTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

function addressOut(address: Address | null | undefined): Record<string, unknown> | null {
  if (!address) return null;
  const name = [address.first_name, address.last_name].filter(Boolean).join(' ');
  return { ...address, name: name || null };
}

function fieldErrors(issues: z.core.$ZodIssue[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? 'order');
    const messages = (errors[field] ??= []);
    if (!messages.includes(issue.message)) messages.push(issue.message);
  }
  return errors;
}

function lineItem(variant: CatalogueVariant, quantity: number, id: number) {
  const variantTitle = variant.title === 'Default Title' ? null : variant.title;
  return {
    id,
    admin_graphql_api_id: `gid://shopify/LineItem/${id}`,
    variant_id: variant.id,
    product_id: variant.productId,
    title: variant.productTitle,
    variant_title: variantTitle,
    name: variantTitle ? `${variant.productTitle} - ${variantTitle}` : variant.productTitle,
    sku: variant.sku,
    quantity,
    price: variant.price,
    grams: variant.grams,
    requires_shipping: variant.requiresShipping,
    taxable: variant.taxable,
    fulfillable_quantity: quantity,
    fulfillment_service: 'manual',
    fulfillment_status: null,
    product_exists: true,
    total_discount: '0.00',
    properties: [],
    tax_lines: [],
  };
}

/**
 * Validates `POST /orders.json`'s body as Shopify does (every line item needs a known,
 * available variant and a quantity of at least 1) and builds the created order.
 */
export function createOrder(
  body: unknown,
  ctx: OrderContext,
): { order: ShopifyOrder } | { refusal: OrderRefusal } {
  const root = (body as { order?: unknown } | null)?.order;
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    return {
      refusal: {
        status: 400,
        body: { errors: { order: 'Required parameter missing or invalid' } },
      },
    };
  }
  const parsed = orderSchema.safeParse(root);
  if (!parsed.success) {
    return { refusal: { status: 422, body: { errors: fieldErrors(parsed.error.issues) } } };
  }
  const input = parsed.data;

  const problems: string[] = [];
  const lines: Array<{ variant: CatalogueVariant; quantity: number }> = [];
  const wanted = new Map<CatalogueVariant, number>();
  for (const item of input.line_items) {
    const variant = ctx.catalogue.variants.get(String(item.variant_id).trim());
    if (!variant) problems.push(`Variant ${item.variant_id} does not exist`);
    else if (!variant.storefront.available)
      problems.push(`${variant.productTitle} is out of stock`);
    else {
      lines.push({ variant, quantity: item.quantity });
      wanted.set(variant, (wanted.get(variant) ?? 0) + item.quantity);
    }
  }
  for (const [variant, quantity] of wanted) {
    if (variant.stock !== null && quantity > variant.stock) {
      problems.push(`${variant.productTitle} has only ${variant.stock} in stock`);
    }
  }
  if (problems.length > 0) {
    return { refusal: { status: 422, body: { errors: { line_items: problems } } } };
  }

  const lineTotal = totalPrice(
    lines.map((l) => ({ price: l.variant.price, quantity: l.quantity })),
  );
  const shippingLines = input.shipping_lines ?? [];
  const shippingTotal = totalPrice(shippingLines.map((l) => ({ price: l.price, quantity: 1 })));
  const id = ctx.nextId();
  const token = randomBytes(16).toString('hex');
  const now = shopifyTime(new Date());
  const order: ShopifyOrder = {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${ctx.orderNumber}`,
    order_number: ctx.orderNumber,
    number: ctx.orderNumber - 1000,
    token,
    email: input.email ?? null,
    contact_email: input.email ?? null,
    phone: input.phone ?? null,
    created_at: now,
    updated_at: now,
    processed_at: now,
    cancelled_at: null,
    closed_at: null,
    confirmed: true,
    test: input.test ?? false,
    currency: ctx.currency,
    presentment_currency: ctx.currency,
    financial_status: input.financial_status ?? 'paid',
    fulfillment_status: null,
    source_name: input.source_name ?? 'api',
    note: input.note ?? null,
    tags: input.tags ?? '',
    note_attributes: input.note_attributes ?? [],
    taxes_included: false,
    total_weight: lines.reduce((sum, l) => sum + l.variant.grams * l.quantity, 0),
    total_line_items_price: centsToString(lineTotal),
    subtotal_price: centsToString(lineTotal),
    total_discounts: '0.00',
    total_tax: '0.00',
    total_shipping_price_set: {
      shop_money: { amount: centsToString(shippingTotal), currency_code: ctx.currency },
    },
    total_price: centsToString(lineTotal + shippingTotal),
    line_items: lines.map((l) => lineItem(l.variant, l.quantity, ctx.nextId())),
    shipping_lines: shippingLines.map((l) => ({ id: ctx.nextId(), code: null, ...l })),
    // Kept as sent; the totals above do not take them off.
    discount_codes: input.discount_codes ?? [],
    shipping_address: addressOut(input.shipping_address),
    billing_address: addressOut(input.billing_address),
    order_status_url: `${ctx.shopUrl}/orders/${token}/authenticate`,
  };
  return { order };
}

/** The filters of `GET orders.json`, as the first request gave them; a page_info cursor keeps them. */
const FILTER_PARAMS = ['ids', 'since_id', 'status', 'created_at_min', 'created_at_max'] as const;
type OrderFilter = Partial<Record<(typeof FILTER_PARAMS)[number], string>>;

/** What a `page_info` token stands for: the first request's filters and where the page starts. */
interface Cursor {
  filter: OrderFilter;
  direction: 'next' | 'previous';
  /** The id of the last order of the page the link was on (next), or of its first (previous). */
  lastId: number;
}

export type OrderPage =
  | {
      orders: Array<Record<string, unknown>>;
      /** page_info of the next (older) and previous (newer) pages, when there are any. */
      next?: string;
      previous?: string;
    }
  | { errors: Record<string, string> };

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(token: string): Cursor | undefined {
  try {
    const cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Cursor;
    const valid =
      typeof cursor === 'object' &&
      cursor !== null &&
      (cursor.direction === 'next' || cursor.direction === 'previous') &&
      Number.isSafeInteger(cursor.lastId) &&
      typeof cursor.filter === 'object' &&
      cursor.filter !== null;
    return valid ? cursor : undefined;
  } catch {
    return undefined;
  }
}

function matchesFilter(order: ShopifyOrder, filter: OrderFilter): boolean {
  const ids = filter.ids?.split(',').map(Number);
  const status = filter.status ?? 'open';
  const created = Date.parse(String(order.created_at));
  return (
    (status === 'open' || status === 'any') &&
    (!ids || ids.includes(order.id)) &&
    order.id > Number(filter.since_id ?? 0) &&
    !(created < Date.parse(filter.created_at_min ?? '')) &&
    !(created > Date.parse(filter.created_at_max ?? ''))
  );
}

/**
 * `GET orders.json`, newest first: `ids`, `since_id`, `status` (every simulated order is open),
 * `created_at_min`/`created_at_max`, `fields` and `limit` (50 by default, at most 250), paged
 * with cursors as Shopify's REST Admin API documents: a page with more orders before or after
 * it links them by `page_info`, and a request with `page_info` keeps the first request's
 * filters and may carry only `limit` and `fields` besides.
 */
export function listOrders(orders: ShopifyOrder[], query: URLSearchParams): OrderPage {
  const limit = parseLimit(query.get('limit') ?? undefined, 50);
  const fields = requestedFields(query);
  let filter: OrderFilter;
  let cursor: Cursor | undefined;
  const pageInfo = query.get('page_info');
  if (pageInfo !== null) {
    const conflict = pageInfoConflict(query);
    if (conflict) return { errors: conflict };
    cursor = decodeCursor(pageInfo);
    if (!cursor) return { errors: { page_info: 'Invalid value.' } };
    filter = cursor.filter;
  } else {
    filter = Object.fromEntries(
      FILTER_PARAMS.flatMap((name) => (query.has(name) ? [[name, query.get(name)!]] : [])),
    );
  }
  const newestFirst = orders.filter((o) => matchesFilter(o, filter)).reverse();
  let start = 0;
  if (cursor?.direction === 'next') {
    start = newestFirst.findIndex((o) => o.id < cursor.lastId);
    if (start < 0) start = newestFirst.length;
  } else if (cursor?.direction === 'previous') {
    const end = newestFirst.findIndex((o) => o.id <= cursor.lastId);
    start = Math.max((end < 0 ? newestFirst.length : end) - limit, 0);
  }
  const page = newestFirst.slice(start, start + limit);
  const first = page[0];
  const last = page[page.length - 1];
  return {
    orders: page.map((o) => onlyFields(o, fields)),
    next:
      last && start + page.length < newestFirst.length
        ? encodeCursor({ filter, direction: 'next', lastId: last.id })
        : undefined,
    previous:
      first && start > 0
        ? encodeCursor({ filter, direction: 'previous', lastId: first.id })
        : undefined,
  };
}
