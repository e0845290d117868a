import { createHash, timingSafeEqual } from 'node:crypto';
import { env } from '../config/env';
import { ApiError } from '../errors';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * Guards the operator API with `authorization: Bearer <OPERATOR_TOKEN>`. Without a configured
 * token the operator API is off (ADMIN_DISABLED) rather than open. Both sides are hashed first
 * so the comparison takes the same time whatever the length or content of the guess.
 */
export function requireOperator(header: string | null | undefined): void {
  const expected = env().OPERATOR_TOKEN;
  if (!expected) {
    throw new ApiError(
      'ADMIN_DISABLED',
      'The operator API is disabled: set OPERATOR_TOKEN (16 characters or more) on the server',
    );
  }
  const presented = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? '')?.[1]?.trim();
  if (!presented) {
    throw new ApiError(
      'AUTH_MISSING',
      'Send the operator token as "authorization: Bearer <token>"',
    );
  }
  if (!timingSafeEqual(digest(presented), digest(expected))) {
    throw new ApiError('INVALID_KEY', 'The operator token is not valid');
  }
}
