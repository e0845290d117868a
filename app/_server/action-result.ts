import { ApiRequestError } from '@/lib/api-client';

export interface ActionFailure {
  ok: false;
  code: string;
  error: string;
  issues?: Array<{ path: string; message: string }>;
}
export type ActionResult<T> = { ok: true; data: T } | ActionFailure;

/**
 * Runs an API call for a server action and returns a plain, serializable outcome: the
 * browser gets the API's code and words, never a stack trace.
 */
export async function toResult<T>(work: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await work() };
  } catch (err) {
    if (err instanceof ApiRequestError)
      return { ok: false, code: err.code, error: err.details ?? err.message, issues: err.issues };
    console.error('dashboard action failed:', (err as Error)?.message);
    return { ok: false, code: 'INTERNAL_ERROR', error: 'Something went wrong on our side.' };
  }
}
