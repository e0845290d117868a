import { z } from 'zod';
import {
  createCheckoutRequest,
  updateCheckoutRequest,
  MAX_LINE_ITEMS,
} from '../ucp/checkout/requests';
import { asTool } from './schemas';

/**
 * Arguments and results of the UCP MCP binding's checkout tools (openrpc.json of UCP
 * 2026-01-11): `checkout` is the REST request body, checked by the same schemas the UCP routes
 * use; `id` names the checkout. `store_id` is ours: the binding serves one business per
 * endpoint, this server every store.
 */
const storeId = z.string().min(1).max(255).meta({
  description:
    'The store the checkout is at (extension to the UCP binding, whose endpoint is one business): a store_id from search_products or get_product',
});

const checkoutId = z
  .string()
  .min(1)
  .max(255)
  .meta({ description: 'The checkout session id (chk_...) from create_checkout' });

/** The binding asks for a UUID on complete and cancel; we take one on create and update too. */
const idempotencyKey = z.uuid().meta({
  description:
    'A UUID per operation: a retry with the same key and arguments returns the first answer, the same key with other arguments is refused (IDEMPOTENCY_CONFLICT)',
});

export const createCheckoutInput = z.object({
  store_id: storeId,
  checkout: asTool(createCheckoutRequest).meta({
    description:
      'The checkout to create (UCP checkout.json request): currency, line_items (item.id is a variant id, or the id of a product with one variant), buyer, fulfillment, discounts',
  }),
  idempotency_key: idempotencyKey.optional(),
});

export const getCheckoutInput = z.object({ store_id: storeId, id: checkoutId });

export const updateCheckoutInput = z.object({
  store_id: storeId,
  id: checkoutId,
  checkout: asTool(updateCheckoutRequest).meta({
    description:
      'What changes: fields left out (buyer, destinations, selections, codes) are kept. fulfillment.methods[].groups[].selected_option_id picks a shipping option; discounts.codes replaces the codes',
  }),
  idempotency_key: idempotencyKey.optional(),
});

const instrument = z.looseObject({
  id: z.string().min(1).max(255),
  handler_id: z.string().min(1).max(255),
  type: z.string().max(100).optional(),
  credential: z.looseObject({ type: z.string().max(100) }).optional(),
});

export const completeCheckoutInput = z.object({
  store_id: storeId,
  id: checkoutId,
  payment: z
    .looseObject({
      selected_instrument_id: z.string().min(1).max(255).optional(),
      instruments: z.array(instrument).min(1).max(20),
    })
    .optional()
    .meta({
      description:
        "UCP payment.json: the instrument paying is the one selected_instrument_id names (or the only one); its handler_id must be one of the checkout's payment.handlers",
    }),
  idempotency_key: idempotencyKey,
});

export const cancelCheckoutInput = z.object({
  store_id: storeId,
  id: checkoutId,
  idempotency_key: idempotencyKey,
});

const total = z.looseObject({ type: z.string(), amount: z.number().int() });

/** UCP checkout.json as the routes answer it; amounts are integers in minor units. */
export const checkoutOutput = z.looseObject({
  ucp: z.looseObject({ version: z.string() }),
  id: z.string(),
  status: z.string().meta({
    description: 'incomplete, ready_for_complete, complete_in_progress, completed or canceled',
  }),
  currency: z.string(),
  line_items: z
    .array(
      z.looseObject({
        id: z.string(),
        item: z.looseObject({ id: z.string(), title: z.string(), price: z.number().int() }),
        quantity: z.number().int(),
        totals: z.array(total),
      }),
    )
    .max(MAX_LINE_ITEMS),
  totals: z.array(total),
  messages: z
    .array(z.looseObject({ type: z.string(), code: z.string(), content: z.string() }))
    .optional(),
  payment: z.looseObject({ handlers: z.array(z.looseObject({ id: z.string() })) }),
  fulfillment: z.looseObject({ methods: z.array(z.looseObject({ id: z.string() })) }).optional(),
  discounts: z.looseObject({ codes: z.array(z.string()) }).optional(),
  order: z.object({ id: z.string(), permalink_url: z.string() }).optional(),
});
