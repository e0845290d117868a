import type { z } from 'zod';

/**
 * Settings read from the environment on every use (a handful of lookups), so an operator or a
 * test can tune them without a restart; a malformed value names the variable.
 */
export function readSettings<S extends z.ZodType>(schema: S, what: string): z.output<S> {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid ${what} configuration: ${detail}`);
  }
  return parsed.data;
}
