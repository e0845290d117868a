/**
 * Every `code` the API answers with, and the HTTP status it is sent with. Operation-specific
 * failure codes (SHIPPING_UPDATE_FAILED, ...) take the status of their cause, listed per cause.
 */
export const CODE_STATUS = {
  SEARCH_SUCCESS: 200,
  NO_RESULTS_FOUND: 200,
  PROFILE_CREATED: 201,
  PROFILE_RETRIEVED: 200,
  STYLE_CREATED: 201,
  STYLE_UPDATED: 200,
  STYLE_RETRIEVED: 200,
  SHIPPING_CREATED: 201,
  SHIPPING_UPDATED: 200,
  ORDER_CREATED: 201,
  ORDER_RETRIEVED: 200,
  ORDERS_LISTED: 200,
  INVALID_REQUEST: 400,
  BAD_REQUEST_ERROR: 400,
  AUTH_MISSING: 401,
  INVALID_KEY: 401,
  FORBIDDEN: 403,
  FORBIDDEN_FEATURE: 403,
  STORE_NOT_FOUND: 404,
  PROFILE_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  STYLE_NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  STYLE_EXISTS: 409,
  STORE_NOT_VERIFIED: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
} as const;

/** Failure codes an operation reports for any cause: invalid input (400), unknown id (404), server (500). */
export const OPERATION_FAILURE_CODES = [
  'SHIPPING_CREATION_FAILED',
  'SHIPPING_UPDATE_FAILED',
  'STYLE_PROFILE_CREATION_FAILED',
  'STYLE_PROFILE_UPDATE_FAILED',
] as const;

export type FixedCode = keyof typeof CODE_STATUS;
export type OperationFailureCode = (typeof OPERATION_FAILURE_CODES)[number];
export type ApiCode = FixedCode | OperationFailureCode;
