import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { ApiRequestError } from '../api-client';

interface UcpErrorEntry {
  code: string;
  message: string;
  severity: string;
}

/**
 * A failure of a UCP binding tool, answered as the binding's error handling says: a JSON-RPC
 * error whose `data` is the UCP error structure (`status: "error"`, `errors[]` with code,
 * message and severity), rather than our tools' error results. Its message starts with the
 * API's code, as theirs do. The SDK sends a thrown error's `code`, `message` and `data`.
 */
export class UcpToolError extends Error {
  readonly data: { status: 'error'; errors: UcpErrorEntry[] };

  constructor(
    readonly code: number,
    ucpCode: string,
    message: string,
    errors: UcpErrorEntry[] = [{ code: ucpCode, message, severity: 'recoverable' }],
  ) {
    super(`${ucpCode}: ${message}`);
    this.name = 'UcpToolError';
    this.data = { status: 'error', errors };
  }
}

/** Arguments that break the binding's schemas: JSON-RPC's invalid params. */
export function invalidArguments(message: string): never {
  throw new UcpToolError(ErrorCode.InvalidParams, 'INVALID_REQUEST', message);
}

/** A failure the API answered, with its UCP messages when the route gave them. */
export function ucpFailure(err: ApiRequestError): never {
  const errors = err.messages?.length
    ? err.messages.map((m) => ({
        code: m.code,
        message: m.content,
        severity: m.severity ?? 'recoverable',
      }))
    : undefined;
  throw new UcpToolError(ErrorCode.InternalError, err.code, err.message, errors);
}
