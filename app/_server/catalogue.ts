import { apiClientFromEnv, type ApiClient } from '@/lib/api-client';
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

/** The stores open to the dashboard's key, for the store filter. */
export async function storeChoices(
  api: ApiClient = apiClientFromEnv(),
): Promise<Array<{ domain: string; name: string }>> {
  const listed = await toResult(() => api.listStores());
  return listed.ok ? listed.data.stores.map((s) => ({ domain: s.domain, name: s.name })) : [];
}
