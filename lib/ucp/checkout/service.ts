import type { Db } from '../../db/client';
import { newId } from '../../db/ids';
import type { StoreRow } from '../../stores/access';
import type { UcpCaller } from '../caller';
import type { UcpSettings } from '../settings';
import { buildCheckout } from './build';
import type { CreateCheckoutRequest, UpdateCheckoutRequest } from './requests';
import {
  CHECKOUT_TTL_MS,
  ensureModifiable,
  insertSession,
  loadSession,
  saveSession,
} from './sessions';
import type { Checkout } from './types';

/** Where a UCP request runs: the store, its settings and the caller. */
export interface UcpScope {
  db: Db;
  store: StoreRow;
  settings: UcpSettings;
  caller: UcpCaller;
}

export async function createCheckout(
  scope: UcpScope,
  request: CreateCheckoutRequest,
): Promise<Checkout> {
  const checkout = await buildCheckout({
    ...scope,
    id: newId('chk'),
    expiresAt: new Date(Date.now() + CHECKOUT_TTL_MS),
    request,
  });
  await insertSession(scope.db, scope.store.id, scope.caller, checkout);
  return checkout;
}

export async function updateCheckout(
  scope: UcpScope,
  id: string,
  request: UpdateCheckoutRequest,
): Promise<Checkout> {
  return scope.db.transaction(async (tx) => {
    const row = await loadSession(tx, scope.store.id, scope.caller, id, { forUpdate: true });
    ensureModifiable(row, 'update');
    const checkout = await buildCheckout({
      ...scope,
      db: tx,
      id,
      expiresAt: row.expiresAt,
      previous: row.checkout as Checkout,
      request,
    });
    await saveSession(tx, id, checkout);
    return checkout;
  });
}

export async function cancelCheckout(scope: UcpScope, id: string): Promise<Checkout> {
  return scope.db.transaction(async (tx) => {
    const row = await loadSession(tx, scope.store.id, scope.caller, id, { forUpdate: true });
    ensureModifiable(row, 'cancel');
    const checkout: Checkout = { ...(row.checkout as Checkout), status: 'canceled' };
    await saveSession(tx, id, checkout);
    return checkout;
  });
}
