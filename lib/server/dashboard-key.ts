import { and, desc, eq, isNull } from 'drizzle-orm';
import { createDeveloper, createKey } from '../auth/keys';
import { currentEnv } from '../config/env';
import type { Db } from '../db/client';
import { apiKeys, developers } from '../db/schema';
import { logger } from '../log/logger';

/** The developer the dashboard acts as when there is no demo developer to share. */
export const DASHBOARD_DEVELOPER_NAME = 'Dashboard (built-in)';

/** The developer whose key the dashboard was given at the last start, if any. */
async function previousDashboardDeveloper(db: Db): Promise<string | undefined> {
  const [row] = await db
    .select({ developerId: apiKeys.developerId })
    .from(apiKeys)
    .where(eq(apiKeys.purpose, 'dashboard'))
    .orderBy(desc(apiKeys.createdAt))
    .limit(1);
  return row?.developerId;
}

/**
 * Gives the dashboard an API key when the operator set no DASHBOARD_API_KEY: a fresh key per
 * start, held only in this process's environment, for the same developer on every start (so its
 * profiles and orders survive restarts). That developer is the one of the last start, else
 * `preferred` (the demo developer whose key the first start prints, so a newcomer's key and the
 * dashboard see the same profiles), else a built-in one. The dashboard keys of earlier starts
 * are revoked, so none outlives its process; keys handed to people are left alone. Returns the
 * developer the dashboard acts as, or undefined when DASHBOARD_API_KEY was configured.
 */
export async function ensureDashboardKey(db: Db, preferred?: string): Promise<string | undefined> {
  if (currentEnv().DASHBOARD_API_KEY) return undefined;
  const developerId =
    (await previousDashboardDeveloper(db)) ??
    preferred ??
    (
      await db
        .select({ id: developers.id })
        .from(developers)
        .where(eq(developers.name, DASHBOARD_DEVELOPER_NAME))
    )[0]?.id ??
    (await createDeveloper(db, DASHBOARD_DEVELOPER_NAME, 'pro')).id;
  await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.purpose, 'dashboard'), isNull(apiKeys.revokedAt)));
  const { key, prefix } = await createKey(db, developerId, 'dashboard');
  process.env.DASHBOARD_API_KEY = key;
  logger().info({ developer: developerId, key_prefix: prefix }, 'dashboard API key created');
  return developerId;
}
