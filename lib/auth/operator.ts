import { env } from '../config/env';
import { ApiError } from '../errors';
import { credentialFromHeader, secretsMatch } from './secrets';

/**
 * Guards the operator API with `authorization: Bearer <OPERATOR_TOKEN>`. Without a configured
 * token the operator API is off (ADMIN_DISABLED) rather than open.
 */
export function requireOperator(header: string | null | undefined): void {
  const expected = env().OPERATOR_TOKEN;
  if (!expected) {
    throw new ApiError(
      'ADMIN_DISABLED',
      'The operator API is disabled: set OPERATOR_TOKEN (16 characters or more) on the server',
    );
  }
  const presented = credentialFromHeader(header);
  if (!presented?.bearer) {
    throw new ApiError(
      'AUTH_MISSING',
      'Send the operator token as "authorization: Bearer <token>"',
    );
  }
  if (!secretsMatch(presented.token, expected)) {
    throw new ApiError('INVALID_KEY', 'The operator token is not valid');
  }
}

/**
 * Whether a header carries the operator token (bare or as "Bearer <token>"); false whenever no
 * token is configured. For a developer request that asks for an operator's extra (explain).
 */
export function isOperatorToken(header: string | null | undefined): boolean {
  const expected = env().OPERATOR_TOKEN;
  const presented = credentialFromHeader(header);
  return Boolean(expected && presented && secretsMatch(presented.token, expected));
}
