import type { PaymentHandlerConfig } from '../contract/store-rules';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { storeUcpSettings } from '../db/schema';

/** A payment handler as the store declares it: UCP's handler object, `id` first. */

export interface UcpSettings {
  /** 'keys': only developers' API keys; 'open': also keyless agents naming their profile. */
  agentAccess: 'keys' | 'open';
  paymentHandlers: PaymentHandlerConfig[];
}

/** No row: API keys only and no payment handler, so nothing can be paid for by default. */
export async function readUcpSettings(db: Db, storeId: string): Promise<UcpSettings> {
  const [row] = await db
    .select()
    .from(storeUcpSettings)
    .where(eq(storeUcpSettings.storeId, storeId));
  return {
    agentAccess: row?.agentAccess ?? 'keys',
    paymentHandlers: (row?.paymentHandlers ?? []) as PaymentHandlerConfig[],
  };
}

/** Changes the settings named; the others keep their value. */
export async function writeUcpSettings(
  db: Db,
  storeId: string,
  change: Partial<UcpSettings>,
): Promise<UcpSettings> {
  const current = await readUcpSettings(db, storeId);
  const next = { ...current, ...change };
  await db
    .insert(storeUcpSettings)
    .values({ storeId, ...next })
    .onConflictDoUpdate({
      target: storeUcpSettings.storeId,
      set: { ...next, updatedAt: new Date() },
    });
  return next;
}
