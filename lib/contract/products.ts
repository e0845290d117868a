import { z } from 'zod';
import { idInput, storeDomainInput } from './common';
import { searchProduct } from './search';

/** `GET /products/{id}` (extension): one product in the shape of the search results. */
export const getProductParams = z.object({
  id: idInput.meta({ description: 'Product id as search returns it (the platform product id)' }),
});

export const getProductQuery = z
  .object({
    profile_id: idInput.optional().meta({
      description:
        'One of your profiles: with an attached address, each variant also carries checkout_url_with_shipping',
    }),
    store_id: idInput.optional().meta({
      description:
        'The store the product belongs to (takes precedence over store_domain); without either, every store open to the caller is looked in',
    }),
    store_domain: storeDomainInput
      .optional()
      .meta({ description: 'Domain of the store the product belongs to' }),
  })
  .meta({ id: 'GetProductQuery' });

export type GetProductQuery = z.output<typeof getProductQuery>;

export const getProductResponse = z
  .object({ code: z.literal('PRODUCT_RETRIEVED'), product: searchProduct })
  .meta({ id: 'GetProductResponse' });
