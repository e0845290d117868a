import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { checkoutSessions } from '../../db/schema';
import type { UcpCaller } from '../caller';
import { notFound, UcpError } from '../errors';
import type { Checkout, CheckoutStatus } from './types';

export type SessionRow = typeof checkoutSessions.$inferSelect;

/** UCP's default: a checkout expires 6 hours after its creation. */
export const CHECKOUT_TTL_MS = 6 * 60 * 60 * 1000;

export async function insertSession(
  db: Db,
  storeId: string,
  caller: UcpCaller,
  checkout: Checkout,
): Promise<void> {
  await db.insert(checkoutSessions).values({
    id: checkout.id,
    storeId,
    owner: caller.owner,
    developerId: caller.developerId,
    agentProfile: caller.agentProfile,
    status: checkout.status,
    checkout,
    buyerEmail: checkout.buyer?.email?.toLowerCase() ?? null,
    expiresAt: new Date(checkout.expires_at),
  });
}

/**
 * The caller's checkout in this store; anyone else's, or one of another store, is not found.
 * With `forUpdate`, the row is locked until the transaction ends (one change at a time).
 */
export async function loadSession(
  db: Db,
  storeId: string,
  caller: UcpCaller,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<SessionRow> {
  const query = db
    .select()
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.id, id),
        eq(checkoutSessions.storeId, storeId),
        eq(checkoutSessions.owner, caller.owner),
      ),
    );
  const [row] = await (opts.forUpdate ? query.for('update') : query);
  if (!row) throw notFound('Checkout session');
  return row;
}

/**
 * Completed and canceled checkouts never change; an expired one can only be canceled; one being
 * completed waits for its outcome.
 */
export function ensureModifiable(row: SessionRow, action: string): void {
  if (row.status === 'completed' || row.status === 'canceled') {
    throw new UcpError(
      409,
      'CHECKOUT_NOT_MODIFIABLE',
      `Cannot ${action} checkout in state '${row.status}'`,
    );
  }
  if (action !== 'cancel' && row.expiresAt.getTime() <= Date.now()) {
    throw new UcpError(
      409,
      'CHECKOUT_EXPIRED',
      `This checkout expired at ${row.expiresAt.toISOString()}: create a new one`,
      'requires_buyer_review',
    );
  }
  if (row.status === 'complete_in_progress') {
    throw new UcpError(
      409,
      'CHECKOUT_COMPLETING',
      `Cannot ${action} checkout while it is being completed`,
    );
  }
}

export async function saveSession(db: Db, id: string, checkout: Checkout): Promise<void> {
  await db
    .update(checkoutSessions)
    .set({
      status: checkout.status,
      checkout,
      buyerEmail: checkout.buyer?.email?.toLowerCase() ?? null,
      updatedAt: new Date(),
    })
    .where(eq(checkoutSessions.id, id));
}

/**
 * Moves a checkout from one of `from` to `to`; false when it was in none of them (another
 * request moved it first): what makes two concurrent completes place one order.
 */
export async function moveStatus(
  db: Db,
  id: string,
  from: CheckoutStatus[],
  to: CheckoutStatus,
  checkout?: Checkout,
  orderId?: string,
): Promise<boolean> {
  const rows = await db
    .update(checkoutSessions)
    .set({
      status: to,
      ...(checkout ? { checkout } : {}),
      ...(orderId ? { orderId } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(checkoutSessions.id, id), inArray(checkoutSessions.status, from)))
    .returning({ id: checkoutSessions.id });
  return rows.length > 0;
}
