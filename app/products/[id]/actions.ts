'use server';

import { revalidatePath } from 'next/cache';
import { apiClientFromEnv } from '@/lib/api-client';
import { idInput } from '@/lib/contract/common';
import { toResult, type ActionResult } from '../../_server/action-result';
import { currentProfileId } from '../../_server/profile-cookie';

/**
 * Buys one unit of a variant for the current profile. The browser makes one idempotency key
 * per confirmed purchase, so a repeated submission can never create a second order.
 */
export async function buyAction(
  storeId: string,
  variantId: string,
  idempotencyKey: string,
): Promise<ActionResult<{ orderId?: string; message: string }>> {
  const profileId = await currentProfileId();
  if (!profileId)
    return { ok: false, code: 'NO_PROFILE', error: 'Choose or create a profile first.' };
  const ids = [storeId, variantId].map((v) => idInput.safeParse(v));
  if (ids.some((r) => !r.success) || !/^[\w-]{8,100}$/.test(idempotencyKey))
    return { ok: false, code: 'BAD_REQUEST_ERROR', error: 'The purchase request is malformed.' };
  const result = await toResult(() =>
    apiClientFromEnv().buy(
      { items: [{ variant_id: variantId, quantity: 1 }], user_id: profileId, store_id: storeId },
      idempotencyKey,
    ),
  );
  if (!result.ok) return result;
  revalidatePath('/profile');
  return { ok: true, data: { orderId: result.data.order_id, message: result.data.message } };
}
