'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { operatorToken } from '@/lib/auth/operator';
import { currentEnv } from '@/lib/config/env';
import { operatorClientFromEnv, type OperatorClient, type StoreSummary } from '@/lib/api-client';
import { toResult, type ActionResult } from '../_server/action-result';
import {
  endStaffSession,
  operatorTokenMatches,
  requireStaff,
  startStaffSession,
} from '../_server/staff-session';

export async function signInAction(token: string): Promise<ActionResult<never>> {
  if (!operatorToken(currentEnv()))
    return {
      ok: false,
      code: 'STAFF_DISABLED',
      error: 'Staff sign-in is off: the server has no operator token (set OPERATOR_TOKEN).',
    };
  if (!operatorTokenMatches(token))
    return { ok: false, code: 'WRONG_TOKEN', error: 'That operator token is not right.' };
  await startStaffSession();
  redirect('/staff');
}

export async function signOutAction(): Promise<void> {
  await endStaffSession();
  redirect('/staff/sign-in');
}

/** Every staff action: the session first, then the operator API with the server's token. */
async function asStaff<T>(work: (api: OperatorClient) => Promise<T>): Promise<ActionResult<T>> {
  await requireStaff();
  const api = operatorClientFromEnv();
  if (!api)
    return { ok: false, code: 'STAFF_DISABLED', error: 'The server has no operator token.' };
  return toResult(() => work(api));
}

function refreshed<T extends { store: StoreSummary }>(
  result: ActionResult<T>,
): ActionResult<StoreSummary> {
  if (!result.ok) return result;
  revalidatePath('/staff', 'layout');
  return { ok: true, data: result.data.store };
}

export async function registerStoreAction(input: {
  domain: string;
  name?: string;
  base_url?: string;
}): Promise<ActionResult<StoreSummary>> {
  return refreshed(await asStaff((api) => api.createStore(input)));
}

export async function getStoreAction(id: string): Promise<ActionResult<StoreSummary>> {
  const result = await asStaff((api) => api.getStore(id));
  return result.ok ? { ok: true, data: result.data.store } : result;
}

export async function startSyncAction(id: string): Promise<ActionResult<StoreSummary>> {
  return refreshed(await asStaff((api) => api.syncStore(id)));
}

export async function setTokenAction(
  id: string,
  token: string,
): Promise<ActionResult<StoreSummary>> {
  return refreshed(await asStaff((api) => api.setToken(id, token)));
}

export async function verifyAction(id: string): Promise<ActionResult<StoreSummary>> {
  return refreshed(await asStaff((api) => api.verify(id)));
}

export async function setPolicyAction(
  id: string,
  policy: 'open' | 'allow',
  developerIds: string[],
): Promise<ActionResult<StoreSummary>> {
  return refreshed(
    await asStaff((api) =>
      api.setPolicy(id, policy, policy === 'allow' ? developerIds : undefined),
    ),
  );
}
