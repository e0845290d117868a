'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { apiClientFromEnv, type ShippingAddressInput } from '@/lib/api-client';
import { idInput } from '@/lib/contract/common';
import { fieldIssues } from '@/lib/contract/issues';
import { shippingAddressInput } from '@/lib/contract/shipping';
import { styleText } from '@/lib/contract/styles';
import { toResult, type ActionResult } from '../_server/action-result';
import { currentProfileId, forgetProfile, rememberProfile } from '../_server/profile-cookie';

const noProfile = {
  ok: false,
  code: 'NO_PROFILE',
  error: 'Choose or create a profile first.',
} as const;

function invalid(error: z.ZodError): ActionResult<never> {
  return {
    ok: false,
    code: 'INVALID_REQUEST',
    error: 'Some fields are not valid.',
    issues: fieldIssues(error),
  };
}

export async function createProfileAction(): Promise<ActionResult<{ id: string }>> {
  const result = await toResult(() => apiClientFromEnv().createProfile());
  if (!result.ok) return result;
  await rememberProfile(result.data.id);
  revalidatePath('/', 'layout');
  return { ok: true, data: { id: result.data.id } };
}

export async function chooseProfileAction(rawId: string): Promise<ActionResult<{ id: string }>> {
  const parsed = idInput.safeParse(rawId);
  if (!parsed.success) return invalid(parsed.error);
  const result = await toResult(() => apiClientFromEnv().getProfile(parsed.data));
  if (!result.ok) return result;
  await rememberProfile(result.data.profile.id);
  revalidatePath('/', 'layout');
  return { ok: true, data: { id: result.data.profile.id } };
}

export async function signOutProfileAction(): Promise<void> {
  await forgetProfile();
  revalidatePath('/', 'layout');
}

/** Creates the profile's style, or replaces its text when it has one. */
export async function saveStyleAction(text: string): Promise<ActionResult<{ id: string }>> {
  const profileId = await currentProfileId();
  if (!profileId) return noProfile;
  const parsed = styleText.safeParse(text);
  if (!parsed.success) return invalid(parsed.error);
  const api = apiClientFromEnv();
  const result = await toResult(async () => {
    const { profile } = await api.getProfile(profileId);
    const existing = profile.styles[0];
    return existing
      ? api.updateStyle(existing.id, parsed.data)
      : api.createStyle(profileId, parsed.data);
  });
  if (!result.ok) return result;
  revalidatePath('/profile');
  return { ok: true, data: { id: result.data.style.id } };
}

/** Attaches a new address, or replaces the attached one with the complete object. */
export async function saveAddressAction(
  address: ShippingAddressInput,
): Promise<ActionResult<{ id: string }>> {
  const profileId = await currentProfileId();
  if (!profileId) return noProfile;
  const parsed = shippingAddressInput.safeParse(address);
  if (!parsed.success) return invalid(parsed.error);
  const api = apiClientFromEnv();
  const result = await toResult(async () => {
    const { profile } = await api.getProfile(profileId);
    return profile.shipping
      ? api.updateShipping(profile.shipping.id, parsed.data)
      : api.createShipping(profileId, parsed.data);
  });
  if (!result.ok) return result;
  revalidatePath('/profile');
  return { ok: true, data: { id: result.data.shipping.id } };
}
