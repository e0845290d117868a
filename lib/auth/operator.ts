import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { env, type Env } from '../config/env';
import { ApiError } from '../errors';
import { credentialFromHeader, secretsMatch } from './secrets';

/** The file in the data directory that holds a generated operator token; owner-readable only. */
export const OPERATOR_TOKEN_FILE = 'operator-token';

/**
 * Set by the server's boot step on the embedded database without OPERATOR_TOKEN. On globalThis:
 * Next.js bundles the boot step and the staff pages apart, each with its own copy of this module.
 */
const slot = globalThis as unknown as { __operatorTokenFile?: { file: string; token: string } };

/**
 * At server start, on the embedded default (no DATABASE_URL) without OPERATOR_TOKEN: the token
 * kept in `dir`, made (exclusively, mode 0600) on the first start, so that a newcomer's staff
 * pages and operator API work with no settings. Undefined when OPERATOR_TOKEN is set or with
 * DATABASE_URL, whose servers have no directory that travels with their data and must be given
 * the token.
 */
export function prepareOperatorToken(
  dir: string,
): { token: string; file: string; created: boolean } | undefined {
  slot.__operatorTokenFile = undefined;
  if (env().OPERATOR_TOKEN || env().DATABASE_URL) return undefined;
  const file = path.join(dir, OPERATOR_TOKEN_FILE);
  let created = false;
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, `${randomBytes(24).toString('base64url')}\n`, {
      flag: 'wx',
      mode: 0o600,
    });
    created = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const token = fs.readFileSync(file, 'utf8').trim();
  slot.__operatorTokenFile = { file, token };
  return { token, file, created };
}

/**
 * The operator token: OPERATOR_TOKEN, else the one the server's start generated in the data
 * directory (prepareOperatorToken); undefined when there is none (the operator API is off).
 * `settings` lets pages that follow the environment as it changes pass currentEnv().
 */
export function operatorToken(settings: Env = env()): string | undefined {
  return settings.OPERATOR_TOKEN ?? slot.__operatorTokenFile?.token;
}

/**
 * Guards the operator API with `authorization: Bearer <operator token>`. Without a token the
 * operator API is off (ADMIN_DISABLED) rather than open.
 */
export function requireOperator(header: string | null | undefined): void {
  const expected = operatorToken();
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
  const expected = operatorToken();
  const presented = credentialFromHeader(header);
  return Boolean(expected && presented && secretsMatch(presented.token, expected));
}
