import { z } from 'zod';
import { idInput } from '../contract/common';
import {
  buyRequest,
  buyResponse,
  getOrderResponse,
  idempotencyKey,
  listOrdersQuery,
  listOrdersResponse,
  orderRecord,
  purchaseItem,
} from '../contract/orders';
import { getProductParams, getProductQuery, getProductResponse } from '../contract/products';
import { createProfileResponse, retrieveProfileResponse } from '../contract/profiles';
import {
  searchProduct,
  searchProductsRequest,
  searchProductsResponse,
  searchVariant,
} from '../contract/search';
import {
  createShippingRequest,
  createShippingResponse,
  updateShippingResponse,
} from '../contract/shipping';
import { createStyleRequest, createStyleResponse, updateStyleResponse } from '../contract/styles';

/**
 * The tools' input and output schemas, all taken from the HTTP contract. MCP wants a tool's
 * schema to be an object at the top, while a contract schema that carries an OpenAPI component
 * id is emitted as a `$ref` to it; `extend({})` is the same fields and checks without the id.
 */
export const asTool = <Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) =>
  schema.extend({});

const profileId = idInput.meta({ description: 'A profile id (prof_...) from create_profile' });

export const searchProductsInput = asTool(searchProductsRequest);
export const searchProductsOutput = asTool(searchProductsResponse);

export const getProductInput = getProductQuery.extend({ product_id: getProductParams.shape.id });
export const getProductOutput = asTool(getProductResponse);

export const checkoutLinkInput = getProductQuery.extend({
  product_id: getProductParams.shape.id,
  variant_id: purchaseItem.shape.variant_id,
  profile_id: profileId,
});
export const checkoutLinkOutput = z.object({
  product_id: searchProduct.shape.id,
  product_title: searchProduct.shape.title,
  store_domain: searchProduct.shape.store_domain,
  variant: searchVariant,
  checkout_url: z.string().meta({
    description:
      "The variant's checkout link, with the profile's shipping address pre-filled when it has one",
  }),
  shipping_prefilled: z.boolean(),
});

export const createProfileOutput = asTool(createProfileResponse);
export const getProfileInput = z.object({ profile_id: profileId });
export const getProfileOutput = asTool(retrieveProfileResponse);

export const setStyleInput = asTool(createStyleRequest);
export const setStyleOutput = createStyleResponse
  .pick({ style: true })
  .extend({ code: z.union([createStyleResponse.shape.code, updateStyleResponse.shape.code]) });

export const setShippingAddressInput = asTool(createShippingRequest);
export const setShippingAddressOutput = createShippingResponse.pick({ shipping: true }).extend({
  code: z.union([createShippingResponse.shape.code, updateShippingResponse.shape.code]),
});

export const buyInput = buyRequest.extend({ idempotency_key: idempotencyKey });
export const buyOutput = buyResponse.extend({
  status: orderRecord.shape.status,
  order: orderRecord,
});

export const getOrderInput = z.object({
  order_id: idInput.meta({ description: 'An order id (ord_...) from buy or list_orders' }),
});
export const getOrderOutput = asTool(getOrderResponse);

export const listOrdersInput = asTool(listOrdersQuery);
export const listOrdersOutput = asTool(listOrdersResponse);
