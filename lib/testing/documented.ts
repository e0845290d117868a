import { z } from 'zod';
import { failureBody } from '../contract/common';
import type { DeclaredOperation } from '../http/operation';

function template(path: string): RegExp {
  return new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
}

function mismatch(what: string, error: z.ZodError): Error {
  return new Error(`${what} does not match its documented schema:\n${z.prettifyError(error)}`);
}

/**
 * Checks one answer against what its operation documents: the success schema at the success
 * status; otherwise a documented failure status, its codes, and the operation's failure shape.
 * An answer of no operation (an unknown path, a wrong method) must still be a failure body.
 */
export function checkDocumented(
  operations: readonly DeclaredOperation[],
  request: { method: string; path: string },
  answer: { status: number; body: unknown },
): void {
  const path = request.path.split('?')[0]!;
  const what = `${request.method} ${path} (${answer.status})`;
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const operation = operations.find((o) => o.method === method && template(o.path).test(path));
  if (!operation) {
    if (answer.status < 400) return;
    const parsed = failureBody.safeParse(answer.body);
    if (!parsed.success) throw mismatch(what, parsed.error);
    return;
  }
  if (request.method === 'HEAD') return;
  if (answer.status === operation.success.status) {
    const parsed = operation.success.schema.safeParse(answer.body);
    if (!parsed.success) throw mismatch(what, parsed.error);
    return;
  }
  const codes = operation.failures
    .filter((f) => f.status === answer.status)
    .flatMap((f) => f.codes);
  const code = (answer.body as { code?: unknown } | null)?.code;
  if (!codes.length || typeof code !== 'string' || !codes.includes(code)) {
    throw new Error(
      `${what} answered code ${String(code)}, which ${operation.operationId} does not document at that status`,
    );
  }
  const parsed = operation.failureSchema.safeParse(answer.body);
  if (!parsed.success) throw mismatch(what, parsed.error);
}
