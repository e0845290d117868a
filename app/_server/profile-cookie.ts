import { cookies } from 'next/headers';
import { currentEnv } from '@/lib/config/env';

const COOKIE = 'profile_id';

export function secureCookies(): boolean {
  return currentEnv().COOKIE_SECURE;
}

export async function currentProfileId(): Promise<string | undefined> {
  return (await cookies()).get(COOKIE)?.value || undefined;
}

/** httpOnly: page scripts never read it; the server actions send it to the API. */
export async function rememberProfile(profileId: string): Promise<void> {
  (await cookies()).set(COOKIE, profileId, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(),
    path: '/',
    maxAge: 60 * 60 * 24 * 365,
  });
}

export async function forgetProfile(): Promise<void> {
  (await cookies()).delete(COOKIE);
}
