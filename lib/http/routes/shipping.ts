import { idParams } from '../../contract/common';
import {
  createShippingRequest,
  createShippingResponse,
  updateShippingRequest,
  updateShippingResponse,
} from '../../contract/shipping';
import { createShipping, updateShipping } from '../../profiles/service';
import { defineOperation } from '../operation';
import type { Api } from '../openapi';

export function shippingRoutes(api: Api): void {
  defineOperation(api, {
    auth: 'developer',
    method: 'post',
    path: '/shipping/create',
    operationId: 'createShipping',
    summary: 'Create a shipping address and attach it to the profile',
    description:
      'The new address becomes the one checkout links and purchases use for that profile.',
    tags: ['Shipping'],
    body: createShippingRequest,
    invalidCode: 'SHIPPING_CREATION_FAILED',
    failureCode: 'SHIPPING_CREATION_FAILED',
    successFlag: true,
    success: { status: 201, schema: createShippingResponse, description: 'The address, attached' },
    failures: [
      {
        status: 400,
        codes: ['SHIPPING_CREATION_FAILED'],
        description: 'Invalid address or request',
      },
      { status: 404, codes: ['SHIPPING_CREATION_FAILED'], description: 'No such profile' },
    ],
  }).handle(async ({ db, caller, body }) => {
    const shipping = await createShipping(db, caller, body.profile_id, body.shipping_address);
    return {
      success: true,
      shipping,
      attached_profile_id: shipping.profile_id,
      code: 'SHIPPING_CREATED',
    };
  });

  defineOperation(api, {
    auth: 'developer',
    method: 'put',
    path: '/shipping/update/{id}',
    operationId: 'updateShipping',
    summary: 'Replace a shipping address with the complete object sent',
    description:
      'Every required field must be sent, even unchanged; a partial object is refused and nothing changes.',
    tags: ['Shipping'],
    params: idParams,
    body: updateShippingRequest,
    invalidCode: 'SHIPPING_UPDATE_FAILED',
    failureCode: 'SHIPPING_UPDATE_FAILED',
    successFlag: true,
    success: { status: 200, schema: updateShippingResponse, description: 'The updated address' },
    failures: [
      {
        status: 400,
        codes: ['SHIPPING_UPDATE_FAILED'],
        description: 'Invalid or incomplete address',
      },
      { status: 404, codes: ['SHIPPING_UPDATE_FAILED'], description: 'No such shipping address' },
    ],
  }).handle(async ({ db, caller, params, body }) => {
    const shipping = await updateShipping(db, caller, params.id, body.shipping_address);
    return { success: true, shipping, id: shipping.id, code: 'SHIPPING_UPDATED' };
  });
}
