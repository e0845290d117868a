import { CODE_STATUS, type ApiCode, type FixedCode } from './contract/codes';

/**
 * A failure the caller can act on: a contract code, the HTTP status, and words for a person.
 * Anything else thrown is an INTERNAL_ERROR whose details never leave the server.
 */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ApiCode,
    message: string,
    status?: number,
    /** Details for `message` (search/products) — which fields, which values. */
    readonly details?: string,
    /** Seconds after which a retry may succeed, sent as `Retry-After`. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status ?? CODE_STATUS[code as FixedCode] ?? 400;
  }
}
