import { CODE_STATUS, type ApiCode, type FixedCode } from './contract/codes';
import type { FieldIssue } from './contract/issues';

export interface ApiErrorExtras {
  /** Which fields were invalid, for forms (answered as `issues`). */
  issues?: FieldIssue[];
  /** Response headers the failure needs, e.g. `Allow` on a 405. */
  headers?: Record<string, string>;
}

/**
 * A failure the caller can act on: a contract code, the HTTP status, and words for a person.
 * Anything else thrown is an INTERNAL_ERROR whose details never leave the server.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly issues?: FieldIssue[];
  readonly headers?: Record<string, string>;
  constructor(
    readonly code: ApiCode,
    message: string,
    status?: number,
    /** Details for `message` (search/products) — which fields, which values. */
    readonly details?: string,
    extras: ApiErrorExtras = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status ?? CODE_STATUS[code as FixedCode] ?? 400;
    this.issues = extras.issues;
    this.headers = extras.headers;
  }
}
