import { z } from 'zod';

/** Ids are opaque strings; some clients send numbers, which name the same thing. */
export const idInput = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform((v) => String(v).trim())
  .pipe(z.string().min(1, 'must not be empty').max(128, 'is too long'));

/** The `{id}` path parameter of the routes that name one resource. */
export const idParams = z.object({ id: idInput });

/** A store domain as a caller writes it; stores are looked up by its normalized form. */
export const storeDomainInput = z.string().trim().min(1, 'must not be empty').max(255);

export const isoTimestamp = z
  .string()
  .meta({ description: 'ISO 8601 UTC timestamp', example: '2026-11-22T10:00:00.000Z' });

export const failureBody = z
  .object({
    success: z.literal(false).optional(),
    code: z.string(),
    error: z.string().meta({ description: 'What went wrong, in words' }),
    message: z
      .string()
      .optional()
      .meta({ description: 'Details: which fields were invalid and why' }),
    issues: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'Invalid input: each invalid field and what is wrong with it' }),
  })
  .meta({ id: 'Failure' });
