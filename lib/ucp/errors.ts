/**
 * A UCP failure. The 2026-01-11 spec's error structure is `messages[]` ({type, code, content,
 * severity}); the conformance suite reads an HTTP status and a `detail` string instead
 * (docs/ucp.md lists where). Every UCP error answer carries both.
 */
export type UcpSeverity = 'recoverable' | 'requires_buyer_input' | 'requires_buyer_review';

export class UcpError extends Error {
  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 422 | 429 | 500 | 502 | 503,
    readonly code: string,
    message: string,
    readonly severity: UcpSeverity = 'recoverable',
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface UcpErrorBody {
  detail: string;
  code: string;
  messages: { type: 'error'; code: string; content: string; severity: UcpSeverity }[];
}

export function ucpErrorBody(error: UcpError): UcpErrorBody {
  return {
    detail: error.message,
    code: error.code,
    messages: [
      { type: 'error', code: error.code, content: error.message, severity: error.severity },
    ],
  };
}

export const notFound = (what: string) =>
  new UcpError(404, 'RESOURCE_NOT_FOUND', `${what} not found`);

export const invalid = (message: string) => new UcpError(400, 'INVALID_REQUEST', message);
