import { z } from 'zod';
import { readSettings } from '../config/settings';

const schema = z.object({
  /** How long a claim on a pending order lasts unless its holder renews it (every third of it). */
  ORDER_LEASE_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** How long after our last request reached it the store may still create an order. */
  STORE_LATE_ORDER_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  /** How often the background reconciler looks for pending orders nobody holds. */
  ORDER_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(5_000),
});

export type OrderSettings = z.infer<typeof schema>;

export function orderSettings(): OrderSettings {
  return readSettings(schema, 'order');
}
