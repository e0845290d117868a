import { createHash, createHmac } from 'node:crypto';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { operatorToken } from '@/lib/auth/operator';
import { secretsMatch } from '@/lib/auth/secrets';
import { currentEnv } from '@/lib/config/env';
import { secureCookies } from './profile-cookie';

const COOKIE = 'staff_session';
const SESSION_SECONDS = 8 * 60 * 60;

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * The session cookie is `<expiry>.<HMAC of it>` keyed by a hash of the operator token: it proves a
 * sign-in without carrying the token, and rotating the token ends every session.
 */
function sign(expiresAt: number, operatorToken: string): string {
  const key = digest(`staff-session:${operatorToken}`);
  return createHmac('sha256', key).update(`staff:${expiresAt}`).digest('base64url');
}

export function operatorTokenMatches(candidate: string): boolean {
  const token = operatorToken(currentEnv());
  if (!token) return false;
  return secretsMatch(candidate, token);
}

export async function startStaffSession(): Promise<void> {
  const token = operatorToken(currentEnv());
  if (!token) throw new Error('The server has no operator token');
  const expiresAt = Math.floor(Date.now() / 1000) + SESSION_SECONDS;
  (await cookies()).set(COOKIE, `${expiresAt}.${sign(expiresAt, token)}`, {
    httpOnly: true,
    sameSite: 'strict',
    secure: secureCookies(),
    path: '/',
    maxAge: SESSION_SECONDS,
  });
}

export async function endStaffSession(): Promise<void> {
  (await cookies()).delete(COOKIE);
}

export async function hasStaffSession(): Promise<boolean> {
  const token = operatorToken(currentEnv());
  const value = (await cookies()).get(COOKIE)?.value;
  if (!token || !value) return false;
  const [expiry, mac] = value.split('.');
  const expiresAt = Number(expiry);
  if (!Number.isInteger(expiresAt) || expiresAt * 1000 < Date.now() || !mac) return false;
  return secretsMatch(mac, sign(expiresAt, token));
}

/** Every staff page and action starts here: without a session, off to the sign-in page. */
export async function requireStaff(): Promise<void> {
  if (!(await hasStaffSession())) redirect('/staff/sign-in');
}
