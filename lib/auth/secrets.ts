import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets in constant time. Both sides are hashed first, so the comparison takes
 * the same time whatever the length or content of a guess (timingSafeEqual alone needs equal
 * lengths, and an early length check would tell a guesser the length).
 */
export function secretsMatch(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * The credential in an `authorization` header: `Bearer <token>` (any case), or the bare value.
 * `bearer` says which, for callers that require the Bearer form.
 */
export function credentialFromHeader(
  header: string | null | undefined,
): { token: string; bearer: boolean } | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  const bearer = /^Bearer\s+(.*)$/i.exec(value);
  const token = (bearer ? bearer[1]! : value).trim();
  return token ? { token, bearer: Boolean(bearer) } : undefined;
}
