import { z } from 'zod';
import { ucpSpecDefs } from './spec.generated';

/**
 * zod 4 schemas of the UCP 2026-01-11 checkout and order, built from the spec's JSON Schemas
 * (spec.generated.ts, made by lib/tooling/ucp-schemas.ts): what our answers are checked against.
 */
function specSchema(key: string): z.ZodType {
  return z.fromJSONSchema({ $ref: `#/$defs/${key}`, $defs: ucpSpecDefs } as never);
}

/** A checkout with each extension we implement: every answer must satisfy all four. */
export const ucpCheckoutSchemas = {
  checkout: specSchema('shopping.checkout'),
  fulfillment: specSchema('shopping.fulfillment__checkout'),
  discount: specSchema('shopping.discount__checkout'),
  buyerConsent: specSchema('shopping.buyer_consent__checkout'),
};

export const ucpOrderSchema = specSchema('shopping.order');
