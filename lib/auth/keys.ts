import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { newId, randomToken } from '../db/ids';
import { apiKeys, developers } from '../db/schema';
import { secretsMatch } from './secrets';

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Plans ordered by what they unlock: a feature needing `pro` is open to pro and enterprise. */
export function planAtLeast(plan: Plan, needed: Plan): boolean {
  return PLANS.indexOf(plan) >= PLANS.indexOf(needed);
}

export interface Caller {
  developerId: string;
  plan: Plan;
  keyPrefix: string;
}

/**
 * Keys look like `csk_<8 char prefix>_<32 char secret>`. The prefix is stored in clear to find
 * the key and to name it in the CLI and logs; only a SHA-256 of the whole key is kept. A
 * 190-bit random secret needs no slow hash: there is nothing to brute-force.
 */
const KEY_PATTERN = /^csk_([A-Za-z0-9]{8})_([A-Za-z0-9]{32})$/;

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export async function createDeveloper(db: Db, name: string, plan: Plan) {
  const id = newId('dev');
  await db.insert(developers).values({ id, name, plan });
  return { id, name, plan };
}

export async function setPlan(db: Db, developerId: string, plan: Plan): Promise<boolean> {
  const rows = await db
    .update(developers)
    .set({ plan, updatedAt: new Date() })
    .where(eq(developers.id, developerId))
    .returning({ id: developers.id });
  return rows.length > 0;
}

export async function createKey(
  db: Db,
  developerId: string,
  purpose: 'dashboard' | null = null,
): Promise<{ key: string; prefix: string }> {
  const prefix = `csk_${randomToken(8)}`;
  const key = `${prefix}_${randomToken(32)}`;
  await db
    .insert(apiKeys)
    .values({ id: newId('key'), developerId, prefix, hash: hashKey(key), purpose });
  return { key, prefix };
}

export async function revokeKey(db: Db, prefix: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.prefix, prefix), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

export async function authenticate(db: Db, key: string): Promise<Caller | undefined> {
  const match = KEY_PATTERN.exec(key);
  if (!match) return undefined;
  const prefix = `csk_${match[1]}`;
  const [row] = await db
    .select({
      hash: apiKeys.hash,
      revokedAt: apiKeys.revokedAt,
      developerId: apiKeys.developerId,
      plan: developers.plan,
    })
    .from(apiKeys)
    .innerJoin(developers, eq(developers.id, apiKeys.developerId))
    .where(eq(apiKeys.prefix, prefix));
  if (!row || row.revokedAt) return undefined;
  if (!secretsMatch(hashKey(key), row.hash)) return undefined;
  return { developerId: row.developerId, plan: row.plan, keyPrefix: prefix };
}
