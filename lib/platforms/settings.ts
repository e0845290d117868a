import { z } from 'zod';
import { readSettings } from '../config/settings';

const schema = z.object({
  SHOPIFY_API_VERSION: z
    .string()
    .regex(/^\d{4}-\d{2}$/, 'must look like 2026-10')
    .default('2026-10'),
  PLATFORM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  PLATFORM_RETRY_LIMIT: z.coerce.number().int().min(0).max(10).default(3),
  PLATFORM_MAX_RETRY_AFTER_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
});

export type PlatformSettings = z.infer<typeof schema>;

/** Store-platform call settings, read on every call: a handful of environment lookups per order. */
export function platformSettings(): PlatformSettings {
  return readSettings(schema, 'store-platform');
}
