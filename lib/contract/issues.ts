import type { z } from 'zod';

/** One invalid field, so a form can point at it: `shipping_address.city` and what is wrong. */
export interface FieldIssue {
  path: string;
  message: string;
}

const MISSING = /received undefined/;

/**
 * zod's words for a person: a missing field "is required" (also when the field takes several
 * types, where zod says only "Invalid input"), and a value of none of a union's types names them.
 */
function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && MISSING.test(issue.message)) return 'is required';
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const firsts = issue.errors.map((branch) => branch[0]);
    if (firsts.every((b) => b?.code === 'invalid_type' && b.path.length === 0)) {
      if (firsts.every((b) => MISSING.test(b!.message))) return 'is required';
      const types = firsts.map((b) => (b as z.core.$ZodIssueInvalidType).expected);
      return `must be a ${types.join(' or a ')}`;
    }
  }
  return issue.message;
}

/** zod's issues in the words the API and the dashboard show (describe above). */
export function fieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((i) => ({
    path: i.path.map(String).join('.') || '(body)',
    message: describe(i),
  }));
}

export function describeIssues(issues: FieldIssue[]): string {
  return issues.map((i) => `${i.path} ${i.message}`).join('; ');
}
