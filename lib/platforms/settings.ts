import { z } from 'zod';

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

/**
 * Store-platform call settings, read on every call so an operator (or a test) can tune them
 * without a restart: they are a handful of environment lookups per order.
 */
export function platformSettings(): PlatformSettings {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid store-platform configuration: ${detail}`);
  }
  return parsed.data;
}
