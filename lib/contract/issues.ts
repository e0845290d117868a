import type { z } from 'zod';

/** One invalid field, so a form can point at it: `shipping_address.city` and what is wrong. */
export interface FieldIssue {
  path: string;
  message: string;
}

/**
 * zod's issues in the words the API and the dashboard show. A missing field reads "is required"
 * rather than zod's "expected string, received undefined".
 */
export function fieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((i) => ({
    path: i.path.map(String).join('.') || '(body)',
    message:
      i.code === 'invalid_type' && /received undefined/.test(i.message) ? 'is required' : i.message,
  }));
}

export function describeIssues(issues: FieldIssue[]): string {
  return issues.map((i) => `${i.path} ${i.message}`).join('; ');
}
