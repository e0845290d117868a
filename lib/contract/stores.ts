import { z } from 'zod';

/** `GET /stores` (extension): what a developer may know of the stores open to its key. */
export const visibleStore = z
  .object({
    id: z.string(),
    name: z.string(),
    domain: z.string().meta({ description: 'Lower-case host name; checkout links use it' }),
    product_count: z.number().int(),
    currency: z.string().nullable().meta({
      description: "ISO 4217 code of the store's prices, from its platform; null until verified",
    }),
    verified: z.boolean().meta({
      description: 'Whether the store takes orders through POST /buy (else STORE_NOT_VERIFIED)',
    }),
  })
  .meta({ id: 'Store' });

export const listVisibleStoresResponse = z
  .object({ code: z.literal('STORES_LISTED'), stores: z.array(visibleStore) })
  .meta({ id: 'ListStoresResponse' });

export type VisibleStore = z.infer<typeof visibleStore>;
