import { apiClientFromEnv, operatorClientFromEnv, type ApiClient } from '@/lib/api-client';
import { toResult } from './action-result';
import { currentProfileId } from './profile-cookie';

/** The current profile and whether it has a style: search shows the style slider only then. */
export async function currentShopper(api: ApiClient = apiClientFromEnv()) {
  const profileId = await currentProfileId();
  if (!profileId) return { profileId: undefined, hasStyle: false };
  const loaded = await toResult(() => api.getProfile(profileId));
  if (!loaded.ok) return { profileId: undefined, hasStyle: false };
  return { profileId, hasStyle: loaded.data.profile.styles.length > 0 };
}

/** Store names for the store filter; store names and domains are public, keys are not. */
export async function storeChoices(): Promise<Array<{ domain: string; name: string }>> {
  const operator = operatorClientFromEnv();
  if (!operator) return [];
  const listed = await toResult(() => operator.listStores());
  return listed.ok ? listed.data.stores.map((s) => ({ domain: s.domain, name: s.name })) : [];
}
