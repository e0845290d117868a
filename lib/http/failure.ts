import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import type { ApiCode, OperationFailureCode } from '../contract/codes';
import { failureBody } from '../contract/common';
import { ApiError } from '../errors';
import { logger } from '../log/logger';
import type { ApiEnv } from './env';

/** A failure an operation documents: its status, the codes sent with it, and when. */
export interface DocumentedFailure {
  status: number;
  codes: string[];
  description: string;
}

/** How an operation words its failures. */
export interface FailureShape {
  /** Code for unreadable or invalid input. */
  invalidCode: ApiCode;
  /**
   * For operations whose contract names one failure code (SHIPPING_UPDATE_FAILED, ...): every
   * failure except `keep` and authentication is reported with it, at the status of its cause.
   */
  failureCode?: OperationFailureCode;
  keep?: ApiCode[];
  /** Failure bodies carry `success: false` (operations whose success body has `success`). */
  successFlag?: boolean;
  /** Failure bodies always carry `message` (the search operations). */
  messageField?: boolean;
  /** Fields every failure body carries as empty lists, e.g. search's `results`. */
  emptyOnFailure?: string[];
}

const AUTH_CODES: ApiCode[] = ['AUTH_MISSING', 'INVALID_KEY'];

/** The schema of an operation's failure bodies, for its OpenAPI entry and the tests. */
export function failureSchema(shape: FailureShape): z.ZodType {
  const extra: Record<string, z.ZodType> = {};
  if (shape.successFlag) extra.success = z.literal(false);
  if (shape.messageField) extra.message = z.string();
  for (const field of shape.emptyOnFailure ?? []) extra[field] = z.tuple([]);
  return Object.keys(extra).length ? failureBody.extend(extra) : failureBody;
}

function reportedCode(shape: FailureShape | undefined, code: ApiCode): string {
  if (!shape?.failureCode || AUTH_CODES.includes(code) || shape.keep?.includes(code)) return code;
  return shape.failureCode;
}

/**
 * The one place where anything thrown while serving a request becomes an answer: an ApiError
 * as its code, status and words, in the shape of the operation being served; anything else as
 * INTERNAL_ERROR, logged with the request id and never described to the caller.
 */
export function failureResponse(err: unknown, c: Context<ApiEnv>): Response {
  let known: ApiError;
  if (err instanceof ApiError) {
    known = err;
  } else {
    (c.var.log ?? logger()).error({ err }, 'unhandled error');
    known = new ApiError(
      'INTERNAL_ERROR',
      `Internal error; quote request id ${c.var.requestId} when reporting it`,
      500,
    );
  }
  const shape = c.var.failure;
  const code = reportedCode(shape, known.code);
  c.set('code', code);
  for (const [name, value] of Object.entries(known.headers ?? {})) c.header(name, value);
  const body = {
    ...Object.fromEntries((shape?.emptyOnFailure ?? []).map((field) => [field, []])),
    ...(shape?.successFlag ? { success: false } : {}),
    code,
    error: known.message,
    ...(shape?.messageField || known.details ? { message: known.details ?? known.message } : {}),
    ...(known.issues ? { issues: known.issues } : {}),
  };
  return c.json(body, known.status as ContentfulStatusCode);
}
