import type { z } from 'zod';

export interface FieldIssue {
  path: string;
  message: string;
}

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
