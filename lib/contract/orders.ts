import { z } from 'zod';
import { storeSummary } from './admin-stores';
import { idInput, isoTimestamp } from './common';
import { shippingRecord } from './shipping';

/** Documented bounds of one purchase: enough for a basket, small enough to refuse abuse. */
export const MAX_ORDER_LINES = 50;
export const MAX_LINE_QUANTITY = 100;

export const purchaseItem = z
  .object({
    variant_id: idInput.meta({
      description: "The store platform's variant id, as a string or a number",
      example: '40123456789012',
    }),
    quantity: z
      .number({ error: 'must be an integer' })
      .int('must be an integer')
      .min(1, 'must be at least 1')
      .max(MAX_LINE_QUANTITY, `must be at most ${MAX_LINE_QUANTITY}`),
  })
  .meta({ id: 'PurchaseItem' });

export const buyRequest = z
  .object({
    items: z
      .array(purchaseItem)
      .min(1, 'must hold at least one item')
      .max(MAX_ORDER_LINES, `must hold at most ${MAX_ORDER_LINES} items`)
      .superRefine((items, ctx) => {
        const seen = new Map<string, number>();
        items.forEach((item, index) => {
          const first = seen.get(item.variant_id);
          if (first === undefined) seen.set(item.variant_id, index);
          else
            ctx.addIssue({
              code: 'custom',
              path: [index, 'variant_id'],
              message: `repeats variant ${item.variant_id} of items.${first}: send one item per variant with the total quantity`,
            });
        });
      }),
    user_id: idInput.meta({ description: "One of the caller's profile ids" }),
    store_id: idInput,
  })
  .meta({ id: 'BuyRequest' });

/** The request as a caller writes it (defaults may be left out). */
export type BuyRequest = z.input<typeof buyRequest>;
/** The request as the service receives it: validated, defaults filled in. */
export type ParsedBuyRequest = z.output<typeof buyRequest>;

/** An Idempotency-Key: what the header carries on HTTP and the `buy` tool's argument over MCP. */
export const idempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 visible ASCII characters (no spaces)')
  .meta({
    description:
      'Makes retries safe: the same key with the same body returns the first answer and never creates a second order; with another body it is refused with IDEMPOTENCY_KEY_REUSED. 1-255 visible ASCII characters, scoped to the developer.',
    example: 'checkout-7f3c2a',
  });

export const idempotencyHeaders = z.object({ 'Idempotency-Key': idempotencyKey.optional() });

/** Extension: the client placing the order names itself; a client that leaves it out loses nothing. */
export const orderSourceHeader = z.string().optional().meta({
  description:
    "Extension: mcp (the MCP server's buy tool) or dashboard (the dashboard's Buy, and only with the dashboard's own key) is recorded as the order's source; anything else, or none, records api",
  example: 'mcp',
});

export const buyHeaders = idempotencyHeaders.extend({ 'X-Order-Source': orderSourceHeader });

export const buyResponse = z
  .object({
    message: z.string(),
    code: z.literal('ORDER_CREATED'),
    order_id: z.string().meta({
      description:
        'Extension to the contract: the id of the recorded order, for GET /orders/{id}. Clients that ignore it lose nothing.',
    }),
  })
  .meta({ id: 'BuyResponse' });

export type BuyResponse = z.output<typeof buyResponse>;

export const ORDER_STATUSES = ['pending', 'created', 'failed'] as const;
export const ORDER_SOURCES = ['api', 'mcp', 'ucp', 'dashboard'] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];

export const orderLine = z
  .object({
    variant_id: z.string(),
    product_id: z.string(),
    title: z.string(),
    variant_title: z.string(),
    quantity: z.number().int(),
    price: z
      .string()
      .meta({ description: 'Unit price when the order was placed', example: '19.99' }),
  })
  .meta({ id: 'OrderLine' });

export type OrderLine = z.infer<typeof orderLine>;

export const orderRecord = z
  .object({
    id: z.string(),
    user_id: z
      .string()
      .nullable()
      .meta({ description: 'The profile it was bought for; null for a UCP order' }),
    store_id: z.string(),
    source: z.enum(ORDER_SOURCES).meta({
      description:
        "How it was placed: ucp (a UCP checkout, whichever client completed it), or a POST /buy by: api (the caller's own code), mcp (the MCP server's buy tool), dashboard (the dashboard's Buy)",
    }),
    status: z.enum(ORDER_STATUSES).meta({
      description:
        'pending: recorded, the store not yet answered; created: the store holds it (platform_order_id); failed: not placed (error_code, error)',
    }),
    platform_order_id: z.string().nullable(),
    error_code: z.string().nullable(),
    error: z.string().nullable(),
    lines: z.array(orderLine),
    total_price: z.string().nullable(),
    shipping: shippingRecord,
    idempotency_key: z.string().nullable(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'Order' });

export type OrderRecord = z.infer<typeof orderRecord>;

export const getOrderResponse = z
  .object({ code: z.literal('ORDER_RETRIEVED'), order: orderRecord })
  .meta({ id: 'GetOrderResponse' });

export const ORDER_LIST_LIMIT = 200;

export const listOrdersQuery = z.object({
  user_id: idInput.optional().meta({ description: "Only this profile's orders" }),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(ORDER_LIST_LIMIT, `must be at most ${ORDER_LIST_LIMIT}`)
    .default(50),
});

export const listOrdersResponse = z
  .object({
    code: z.literal('ORDERS_LISTED'),
    orders: z.array(orderRecord).meta({ description: 'Newest first' }),
  })
  .meta({ id: 'ListOrdersResponse' });

/** Operator API: attaching a store's Admin API token. */
export const storeTokenRequest = z
  .object({
    token: z
      .string()
      .trim()
      .min(1, 'is required')
      .max(500, 'must be at most 500 characters')
      .meta({ description: "The store's Admin API access token (Shopify: shpat_...)" }),
  })
  .meta({ id: 'StoreTokenRequest' });

export const storeOrdersResponse = z
  .object({
    code: z.literal('STORE_ORDERS_LISTED'),
    orders: z
      .array(
        orderRecord.extend({
          developer_id: z
            .string()
            .nullable()
            .meta({ description: 'Null for an order of a keyless UCP agent' }),
          agent_profile: z
            .string()
            .nullable()
            .meta({ description: 'The UCP agent profile URL of a UCP order' }),
          fulfillment: z.string().meta({
            description:
              "The type of a UCP order's latest fulfillment event (shipped, delivered, ...), or 'not shipped'",
            example: 'not shipped',
          }),
        }),
      )
      .meta({ description: 'Newest first' }),
  })
  .meta({ id: 'StoreOrdersResponse' });

export const storeVerificationResponse = z
  .object({
    code: z.enum(['STORE_VERIFIED', 'STORE_UNVERIFIED']),
    store: storeSummary,
  })
  .meta({ id: 'StoreVerificationResponse' });
