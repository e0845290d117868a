import { z } from 'zod';

/**
 * A Shopify product as either source sends it: the public storefront `/products.json`
 * (variants carry `available`, tags are an array) or the Admin REST API (variants carry
 * inventory fields, tags are one comma-separated string, products carry `status`). Only the
 * fields the catalogue reads are checked; everything else passes through untouched in `raw`.
 */
/** Shopify's ids are integers; a UCP test-data shop's are opaque text, kept as given. */
const shopifyId = z.union([z.number().int().nonnegative(), z.string().trim().min(1).max(64)], {
  error: 'must be an id (an integer or text of 1 to 64 characters)',
});
const optionalText = z
  .string()
  .nullish()
  .transform((v) => v ?? '');
const optionValue = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? null : String(v)));

export const shopifyVariant = z.object({
  id: shopifyId,
  title: optionalText,
  price: z.union([z.string(), z.number()], { error: 'is required (a decimal)' }),
  available: z.boolean().nullish(),
  inventory_quantity: z.number().nullish(),
  inventory_policy: z.string().nullish(),
  inventory_management: z.string().nullish(),
  option1: optionValue,
  option2: optionValue,
  option3: optionValue,
  sku: z.string().nullish(),
  position: z.number().int().nullish(),
});

export const shopifyProduct = z.object({
  id: shopifyId,
  title: z.string({ error: 'is required' }).trim().min(1, 'must not be empty'),
  handle: optionalText,
  body_html: optionalText,
  vendor: optionalText,
  product_type: optionalText,
  status: z.string().nullish(),
  tags: z
    .union([z.string(), z.array(z.string())])
    .nullish()
    .transform((v) =>
      (typeof v === 'string' ? v.split(',') : (v ?? [])).map((t) => t.trim()).filter(Boolean),
    ),
  options: z
    .array(
      z.object({
        name: z.string(),
        values: z.array(z.union([z.string(), z.number()]).transform(String)).nullish(),
      }),
    )
    .nullish()
    .transform((v) => v ?? []),
  variants: z.array(shopifyVariant).min(1, 'must list at least one variant'),
  images: z
    .array(z.union([z.string(), z.object({ src: z.string() })]))
    .nullish()
    .transform((v) => (v ?? []).map((image) => (typeof image === 'string' ? image : image.src))),
});

export type ShopifyProduct = z.output<typeof shopifyProduct>;
export type ShopifyVariant = z.output<typeof shopifyVariant>;
