import type { Metadata } from 'next';
import { describeFailure } from '@/components/code-words';
import { formatTime } from '@/components/format';
import { Notice } from '@/components/notice';
import { OrdersTable } from '@/components/orders-table';
import { apiClientFromEnv } from '@/lib/api-client';
import { toResult } from '../_server/action-result';
import { currentProfileId } from '../_server/profile-cookie';
import { AddressForm } from './address-form';
import { ProfilePicker } from './profile-picker';
import { StyleForm } from './style-form';

export const metadata: Metadata = { title: 'Profile · Commerce search' };
export const dynamic = 'force-dynamic';

export default async function ProfilePage() {
  const profileId = await currentProfileId();
  const api = apiClientFromEnv();
  const loaded = profileId ? await toResult(() => api.getProfile(profileId)) : undefined;
  const profile = loaded?.ok ? loaded.data.profile : undefined;
  const orders = profile ? await toResult(() => api.listOrders(profile.id)) : undefined;
  const style = profile?.styles[0];

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Profile</h1>
      {loaded && !loaded.ok && (
        <Notice tone="error" title="The saved profile could not be loaded">
          {describeFailure(loaded.code, loaded.error)}
        </Notice>
      )}
      {profile ? (
        <p>
          Current profile:{' '}
          <span className="font-mono" data-testid="profile-id">
            {profile.id}
          </span>{' '}
          (created {formatTime(profile.created_at)})
        </p>
      ) : (
        <p>No profile is in use. Create one, or enter the id of one you already have.</p>
      )}
      <ProfilePicker currentId={profile?.id} />
      {profile && (
        <>
          <section aria-labelledby="style-heading" className="card space-y-3">
            <h2 id="style-heading" className="text-lg font-semibold">
              Style
            </h2>
            {style ? (
              <p className="text-sm text-slate-600" data-testid="style-saved">
                Saved: “{style.text}” · created {formatTime(style.created_at)} · updated{' '}
                {formatTime(style.updated_at)}
              </p>
            ) : (
              <p className="text-sm text-slate-600">No style yet: search is not personalized.</p>
            )}
            <StyleForm key={profile.id} text={style?.text} />
          </section>
          <section aria-labelledby="address-heading" className="card space-y-3">
            <h2 id="address-heading" className="text-lg font-semibold">
              Shipping address
            </h2>
            {profile.shipping ? (
              <p className="text-sm text-slate-600" data-testid="address-saved">
                Saved: {profile.shipping.address_1}, {profile.shipping.city}{' '}
                {profile.shipping.province_code} {profile.shipping.postal_code},{' '}
                {profile.shipping.country_code} · created {formatTime(profile.shipping.created_at)}{' '}
                · updated {formatTime(profile.shipping.updated_at)}
              </p>
            ) : (
              <p className="text-sm text-slate-600">
                No address yet: checkout links will not be pre-filled and purchases need one.
              </p>
            )}
            <AddressForm key={profile.id} saved={profile.shipping} />
          </section>
          <section aria-labelledby="orders-heading" className="card space-y-3">
            <h2 id="orders-heading" className="text-lg font-semibold">
              Orders
            </h2>
            {orders?.ok ? (
              <OrdersTable orders={orders.data.orders} caption="Orders of this profile" />
            ) : (
              <Notice tone="error">
                Orders could not be loaded. {orders && describeFailure(orders.code, orders.error)}
              </Notice>
            )}
          </section>
        </>
      )}
    </div>
  );
}
