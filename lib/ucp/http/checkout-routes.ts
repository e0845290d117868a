import { z } from 'zod';
import type { Api } from '../../http/openapi';
import { cancelCheckout, createCheckout, updateCheckout, type UcpScope } from '../checkout/service';
import {
  completeCheckout,
  settleCompletion,
  type OrderPlacedHook,
  type OrderPlacement,
} from '../checkout/complete';
import {
  completeCheckoutRequest,
  createCheckoutRequest,
  updateCheckoutRequest,
} from '../checkout/requests';
import { loadSession } from '../checkout/sessions';
import type { Checkout } from '../checkout/types';
import { findProfile } from '../../profiles/service';
import { businessProfile } from '../discovery';
import { UcpError } from '../errors';
import { findUcpOrder } from '../orders';
import { announceOrderPlaced } from '../webhooks/order-placed';
import { storeParam, ucpRoute, type UcpRequest } from './operation';

const idParam = storeParam.extend({ id: z.string().min(1).max(255) });

const checkoutBody = z
  .looseObject({
    id: z.string(),
    status: z.string(),
    currency: z.string(),
    line_items: z.array(z.unknown()),
    totals: z.array(z.looseObject({ type: z.string(), amount: z.number().int() })),
  })
  .meta({ id: 'UcpCheckout', description: 'A UCP checkout (checkout.json, 2026-01-11)' });

const orderBody = z
  .looseObject({ id: z.string(), checkout_id: z.string(), permalink_url: z.string() })
  .meta({ id: 'UcpOrder', description: 'A UCP order (order.json, 2026-01-11)' });

const profileBody = z
  .looseObject({ ucp: z.looseObject({ version: z.string() }) })
  .meta({ id: 'UcpBusinessProfile' });

const onOrderPlaced: OrderPlacedHook = announceOrderPlaced;

function scopeOf(request: UcpRequest<unknown>): UcpScope {
  return {
    db: request.db,
    store: request.store,
    settings: request.settings,
    caller: request.caller,
  };
}

/** Extension: the caller's profile a completed checkout's order is for. */
const PROFILE_HEADER = 'x-profile-id';

/**
 * Our extension header of a completion, checked before anything is paid: the profile the order is
 * for (a signed-in shopper's, as the dashboard sends it), which must be the caller's developer's.
 */
async function placementOf(r: UcpRequest<unknown>): Promise<OrderPlacement> {
  const named = r.header(PROFILE_HEADER)?.trim();
  if (!named) return { profileId: null };
  const profile = r.caller.developer && (await findProfile(r.db, r.caller.developer, named));
  if (!profile) {
    throw new UcpError(
      404,
      'PROFILE_NOT_FOUND',
      `X-Profile-Id ${named} is not a profile of this API key's developer`,
    );
  }
  return { profileId: profile.id };
}

const notFound = { 404: 'No such store, or no such checkout of the caller' };
const auth = { 401: 'No API key (and the store is not open to keyless agents), or a bad one' };

export function checkoutRoutes(api: Api): void {
  ucpRoute(
    api,
    {
      method: 'get',
      path: '/.well-known/ucp',
      operationId: 'ucpBusinessProfile',
      summary: "The store's UCP business profile",
      params: storeParam,
      public: true,
      success: { status: 200, description: 'The profile', schema: profileBody },
      failures: { 404: 'No such store, or not sellable' },
    },
    async (r) => ({ body: await businessProfile(r.baseUrl, r.settings.paymentHandlers) }),
  );

  ucpRoute(
    api,
    {
      method: 'post',
      path: '/checkout-sessions',
      operationId: 'ucpCreateCheckout',
      summary: 'Create a checkout session',
      params: storeParam,
      body: createCheckoutRequest,
      idempotent: 'create',
      success: { status: 201, description: 'The checkout', schema: checkoutBody },
      failures: { ...auth, ...notFound, 409: 'Idempotency-Key reused with another body' },
    },
    async (r) => ({ body: await createCheckout(scopeOf(r), r.input) }),
  );

  ucpRoute(
    api,
    {
      method: 'get',
      path: '/checkout-sessions/{id}',
      operationId: 'ucpGetCheckout',
      summary: 'Get a checkout session',
      params: idParam,
      success: { status: 200, description: 'The checkout', schema: checkoutBody },
      failures: { ...auth, ...notFound },
    },
    async (r) => {
      const scope = scopeOf(r);
      const row = await loadSession(scope.db, scope.store.id, scope.caller, r.params.id);
      const settled = await settleCompletion(scope, row, onOrderPlaced);
      return { body: settled.checkout as Checkout };
    },
  );

  ucpRoute(
    api,
    {
      method: 'put',
      path: '/checkout-sessions/{id}',
      operationId: 'ucpUpdateCheckout',
      summary: 'Update a checkout session (what the request omits is kept)',
      params: idParam,
      body: updateCheckoutRequest,
      idempotent: 'update',
      success: { status: 200, description: 'The checkout', schema: checkoutBody },
      failures: {
        ...auth,
        ...notFound,
        409: 'Completed or canceled, or Idempotency-Key reused with another body',
      },
    },
    async (r) => ({ body: await updateCheckout(scopeOf(r), r.params.id, r.input) }),
  );

  ucpRoute(
    api,
    {
      method: 'post',
      path: '/checkout-sessions/{id}/complete',
      operationId: 'ucpCompleteCheckout',
      summary: 'Pay and place the order',
      description:
        "Extensions: `X-Profile-Id` names a profile of the caller's developer the order is for (it then lists among the profile's orders; another is 404 PROFILE_NOT_FOUND). The order's source is ucp whichever client completes it.",
      params: idParam,
      body: completeCheckoutRequest,
      idempotent: 'complete',
      success: { status: 200, description: 'The completed checkout', schema: checkoutBody },
      failures: {
        ...auth,
        402: 'Payment declined',
        403: 'Payment refused as fraud (mock handler)',
        404: 'No such store, no such checkout of the caller, or X-Profile-Id not a profile of the caller',
        409: 'Completed, canceled, being completed, or changed since shown',
        502: 'The store refused or could not take the order',
        503: 'The store has not confirmed the order yet',
      },
    },
    async (r) => ({
      body: await completeCheckout(
        scopeOf(r),
        r.params.id,
        r.input,
        r.baseUrl,
        onOrderPlaced,
        await placementOf(r),
      ),
    }),
  );

  ucpRoute(
    api,
    {
      method: 'post',
      path: '/checkout-sessions/{id}/cancel',
      operationId: 'ucpCancelCheckout',
      summary: 'Cancel a checkout session',
      params: idParam,
      body: z.looseObject({}),
      bodyOptional: true,
      idempotent: 'cancel',
      success: { status: 200, description: 'The canceled checkout', schema: checkoutBody },
      failures: { ...auth, ...notFound, 409: 'Completed or canceled already' },
    },
    async (r) => ({ body: await cancelCheckout(scopeOf(r), r.params.id) }),
  );

  ucpRoute(
    api,
    {
      method: 'get',
      path: '/orders/{id}',
      operationId: 'ucpGetOrder',
      summary: 'Get an order placed by a checkout',
      params: idParam,
      success: { status: 200, description: 'The order', schema: orderBody },
      failures: { ...auth, 404: 'No such order of the caller' },
    },
    async (r) => ({ body: await findUcpOrder(scopeOf(r), r.params.id) }),
  );
}
