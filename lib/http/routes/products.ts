import { getProductParams, getProductQuery, getProductResponse } from '../../contract/products';
import { getProduct } from '../../search/results/product-lookup';
import { defineOperation } from '../operation';
import type { Api } from '../openapi';

export function productRoutes(api: Api): void {
  defineOperation(api, {
    auth: 'developer',
    method: 'get',
    path: '/products/{id}',
    operationId: 'getProduct',
    summary: 'Retrieve one product in the shape of the search results (extension)',
    description:
      'The product with this id (as POST /search/products returns it) in a store open to the caller, with every variant and its checkout_url. ' +
      'With profile_id, a profile with an attached address also gets checkout_url_with_shipping. ' +
      'store_id or store_domain names the store; without them every store open to the caller is looked in.',
    tags: ['Search'],
    params: getProductParams,
    query: getProductQuery,
    invalidCode: 'INVALID_REQUEST',
    messageField: true,
    success: { status: 200, schema: getProductResponse, description: 'PRODUCT_RETRIEVED' },
    failures: [
      { status: 400, codes: ['INVALID_REQUEST'], description: 'Invalid query parameters' },
      {
        status: 404,
        codes: ['PRODUCT_NOT_FOUND', 'STORE_NOT_FOUND', 'PROFILE_NOT_FOUND'],
        description:
          'No such product in the stores open to the caller, or an unknown store or profile',
      },
    ],
  }).handle(async ({ db, caller, params, query }) => ({
    code: 'PRODUCT_RETRIEVED',
    product: await getProduct(db, caller, params.id, query),
  }));
}
