'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { apiClientFromEnv, type ShippingRecord, type UcpCheckout } from '@/lib/api-client';
import { idInput } from '@/lib/contract/common';
import { toResult, type ActionResult } from '../_server/action-result';
import { currentProfileId } from '../_server/profile-cookie';
import { dashboardPayment } from './payment';

/**
 * The dashboard's UCP checkout: each action is one call to the store's UCP routes through the
 * API client with the dashboard's key, so the checkout is the API's own (prices, shipping,
 * discounts and totals decided there).
 */

const malformed: ActionResult<never> = {
  ok: false,
  code: 'BAD_REQUEST_ERROR',
  error: 'The checkout request is malformed.',
};

function ids(...values: string[]): boolean {
  return values.every((v) => idInput.safeParse(v).success);
}

const KEY = /^[\w-]{8,100}$/;

/** The profile's shipping address as UCP's buyer and destination. */
function fromShipping(s: ShippingRecord) {
  const person = { first_name: s.first_name, last_name: s.last_name, phone_number: s.phone };
  return {
    buyer: { email: s.email, ...person },
    destination: {
      id: 'profile-address',
      street_address: s.address_1,
      ...(s.address_2 ? { extended_address: s.address_2 } : {}),
      address_locality: s.city,
      address_region: s.province_code,
      postal_code: s.postal_code,
      address_country: s.country_code,
      ...person,
    },
  };
}

/** Buy: a checkout for one of the variant, to the current profile's address; then its page. */
export async function startCheckoutAction(
  storeId: string,
  variantId: string,
  currency: string,
): Promise<ActionResult<never>> {
  if (!ids(storeId, variantId) || !/^[A-Z]{3}$/.test(currency)) return malformed;
  const profileId = await currentProfileId();
  if (!profileId)
    return { ok: false, code: 'NO_PROFILE', error: 'Choose or create a profile first.' };
  const api = apiClientFromEnv();
  const created = await toResult(async () => {
    const { profile } = await api.getProfile(profileId);
    if (!profile.shipping) return undefined;
    const { buyer, destination } = fromShipping(profile.shipping);
    return api.createCheckout(storeId, {
      currency,
      line_items: [{ item: { id: variantId }, quantity: 1 }],
      buyer,
      fulfillment: {
        methods: [
          {
            type: 'shipping',
            destinations: [destination],
            selected_destination_id: destination.id,
          },
        ],
      },
    });
  });
  if (!created.ok) return created;
  if (!created.data)
    return {
      ok: false,
      code: 'NO_SHIPPING_ADDRESS',
      error: 'The profile has no shipping address: add one on the Profile page.',
    };
  redirect(`/checkout/${encodeURIComponent(storeId)}/${encodeURIComponent(created.data.id)}`);
}

/** Picks a shipping option of a group: an update of the checkout. */
export async function chooseShippingAction(
  storeId: string,
  checkoutId: string,
  choice: { methodId: string; groupId: string; optionId: string },
): Promise<ActionResult<UcpCheckout>> {
  if (!ids(storeId, checkoutId, choice.methodId, choice.groupId, choice.optionId)) return malformed;
  return toResult(() =>
    apiClientFromEnv().updateCheckout(storeId, checkoutId, {
      fulfillment: {
        methods: [
          {
            id: choice.methodId,
            groups: [{ id: choice.groupId, selected_option_id: choice.optionId }],
          },
        ],
      },
    }),
  );
}

/** Replaces the checkout's discount codes (the applied ones and the new one). */
export async function applyCodesAction(
  storeId: string,
  checkoutId: string,
  codes: string[],
): Promise<ActionResult<UcpCheckout>> {
  if (!ids(storeId, checkoutId) || codes.length > 20 || codes.some((c) => !c || c.length > 100))
    return malformed;
  return toResult(() =>
    apiClientFromEnv().updateCheckout(storeId, checkoutId, { discounts: { codes } }),
  );
}

/**
 * Confirm: pays with the dashboard's payment (./payment.ts) and places the order, for the current
 * profile when there is one, so that it lists among the profile's orders.
 */
export async function completeCheckoutAction(
  storeId: string,
  checkoutId: string,
  idempotencyKey: string,
): Promise<ActionResult<UcpCheckout>> {
  if (!ids(storeId, checkoutId) || !KEY.test(idempotencyKey)) return malformed;
  const profileId = await currentProfileId();
  const result = await toResult(() =>
    apiClientFromEnv().completeCheckout(storeId, checkoutId, dashboardPayment, {
      idempotencyKey,
      profileId,
    }),
  );
  if (result.ok) revalidatePath('/profile');
  return result;
}

export async function cancelCheckoutAction(
  storeId: string,
  checkoutId: string,
): Promise<ActionResult<UcpCheckout>> {
  if (!ids(storeId, checkoutId)) return malformed;
  return toResult(() => apiClientFromEnv().cancelCheckout(storeId, checkoutId));
}
