import { z } from 'zod';

/**
 * What a client may send to create or update a checkout, checked before any of it is used:
 * UCP's request shapes (checkout.json with the fulfillment, discount and buyer-consent
 * extensions), loose where the spec lets a client add fields, with bounds that keep one request
 * small. Prices, titles and totals a client sends are ignored: the store's catalogue decides.
 */
const id = z.string().min(1).max(255);
const text = z.string().max(1000);

export const MAX_LINE_ITEMS = 100;
export const MAX_QUANTITY = 1_000_000;

const lineItem = z.looseObject({
  id: id.optional(),
  item: z.looseObject({ id, title: text.optional() }),
  quantity: z.number().int().min(1).max(MAX_QUANTITY),
  parent_id: id.optional(),
});

const destination = z.looseObject({
  id: id.optional(),
  street_address: text.optional(),
  extended_address: text.optional(),
  address_locality: text.optional(),
  address_region: text.optional(),
  postal_code: text.optional(),
  address_country: z.string().max(3).optional(),
  first_name: text.optional(),
  last_name: text.optional(),
  full_name: text.optional(),
  phone_number: text.optional(),
});

const method = z.looseObject({
  id: id.optional(),
  type: z.enum(['shipping', 'pickup']).optional(),
  line_item_ids: z.array(id).max(MAX_LINE_ITEMS).optional(),
  destinations: z.array(destination).max(20).optional(),
  selected_destination_id: id.nullable().optional(),
  groups: z
    .array(
      z.looseObject({
        id: id.optional(),
        line_item_ids: z.array(id).max(MAX_LINE_ITEMS).optional(),
        selected_option_id: id.nullable().optional(),
      }),
    )
    .max(20)
    .optional(),
});

const buyer = z.looseObject({
  email: z.string().max(320).optional(),
  first_name: text.optional(),
  last_name: text.optional(),
  full_name: text.optional(),
  phone_number: text.optional(),
  consent: z
    .looseObject({
      analytics: z.boolean().optional(),
      preferences: z.boolean().optional(),
      marketing: z.boolean().optional(),
      sale_of_data: z.boolean().optional(),
    })
    .optional(),
});

const instrument = z.looseObject({
  id,
  handler_id: id.optional(),
  type: z.string().max(100).optional(),
});

const payment = z.looseObject({
  selected_instrument_id: id.optional(),
  instruments: z.array(instrument).max(20).optional(),
});

const fields = {
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code'),
  line_items: z.array(lineItem).min(1).max(MAX_LINE_ITEMS),
  buyer: buyer.optional(),
  payment: payment.optional(),
  fulfillment: z.looseObject({ methods: z.array(method).max(10) }).optional(),
  discounts: z
    .looseObject({ codes: z.array(z.string().min(1).max(100)).max(20).optional() })
    .optional(),
};

export const createCheckoutRequest = z.looseObject(fields).meta({ id: 'UcpCheckoutCreateRequest' });

export const updateCheckoutRequest = z
  .looseObject({
    ...fields,
    id: id.optional(),
    currency: fields.currency.optional(),
    line_items: fields.line_items.optional(),
  })
  .meta({ id: 'UcpCheckoutUpdateRequest' });

/** POST .../complete: the instrument paying, as the suite and the reference server send it. */
export const completeCheckoutRequest = z
  .looseObject({
    payment_data: instrument.extend({
      credential: z.looseObject({ type: z.string().max(100) }).optional(),
    }),
    risk_signals: z.record(z.string(), z.unknown()).optional(),
    ap2: z.looseObject({ checkout_mandate: z.string().max(20_000).optional() }).optional(),
  })
  .meta({ id: 'UcpCheckoutCompleteRequest' });

export type CreateCheckoutRequest = z.output<typeof createCheckoutRequest>;
export type UpdateCheckoutRequest = z.output<typeof updateCheckoutRequest>;
export type CompleteCheckoutRequest = z.output<typeof completeCheckoutRequest>;
