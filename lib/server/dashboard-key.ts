import { and, eq, isNull } from 'drizzle-orm';
import { createDeveloper, createKey } from '../auth/keys';
import type { Db } from '../db/client';
import { apiKeys, developers } from '../db/schema';
import { logger } from '../log/logger';

/** The developer the dashboard acts as when no DASHBOARD_API_KEY is configured. */
export const DASHBOARD_DEVELOPER_NAME = 'Dashboard (built-in)';

/**
 * Gives the dashboard an API key when the operator set none: the same built-in developer on
 * every start (so its profiles and orders survive restarts) with a fresh key held only in this
 * process's environment. Keys of earlier starts are revoked, so none outlives its process.
 */
export async function ensureDashboardKey(db: Db): Promise<void> {
  if (process.env.DASHBOARD_API_KEY) return;
  const [existing] = await db
    .select({ id: developers.id })
    .from(developers)
    .where(eq(developers.name, DASHBOARD_DEVELOPER_NAME));
  const developerId =
    existing?.id ?? (await createDeveloper(db, DASHBOARD_DEVELOPER_NAME, 'pro')).id;
  await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.developerId, developerId), isNull(apiKeys.revokedAt)));
  const { key, prefix } = await createKey(db, developerId);
  process.env.DASHBOARD_API_KEY = key;
  logger().info({ developer: developerId, key_prefix: prefix }, 'dashboard API key created');
}
