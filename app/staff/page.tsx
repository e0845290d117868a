import type { Metadata } from 'next';
import Link from 'next/link';
import { describeFailure } from '@/components/code-words';
import { formatTime } from '@/components/format';
import { Notice } from '@/components/notice';
import { operatorClientFromEnv } from '@/lib/api-client';
import { toResult } from '../_server/action-result';
import { requireStaff } from '../_server/staff-session';
import { RegisterStoreForm } from './register-store-form';
import { SignOutButton } from './sign-out-button';

export const metadata: Metadata = { title: 'Stores · Staff · Commerce search' };
export const dynamic = 'force-dynamic';

export default async function StaffHome() {
  await requireStaff();
  const api = operatorClientFromEnv();
  const listed = api ? await toResult(() => api.listStores()) : undefined;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">Stores</h1>
        <SignOutButton />
      </div>
      <section aria-labelledby="register-heading" className="space-y-2">
        <h2 id="register-heading" className="text-lg font-semibold">
          Register a store
        </h2>
        <RegisterStoreForm />
      </section>
      <section aria-labelledby="stores-heading" className="space-y-2">
        <h2 id="stores-heading" className="text-lg font-semibold">
          Registered stores
        </h2>
        {listed && !listed.ok && (
          <Notice tone="error" title="The stores could not be listed">
            {describeFailure(listed.code, listed.error)}
          </Notice>
        )}
        {listed?.ok && listed.data.stores.length === 0 && <p>No stores are registered yet.</p>}
        {listed?.ok && listed.data.stores.length > 0 && (
          <div className="overflow-x-auto">
            <table className="stack-table w-full text-left text-sm">
              <thead>
                <tr className="border-b">
                  <th scope="col" className="py-2 pr-3">
                    Store
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Products
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Sync
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Verified
                  </th>
                  <th scope="col" className="py-2">
                    Access
                  </th>
                </tr>
              </thead>
              <tbody>
                {listed.data.stores.map((s) => (
                  <tr key={s.id} className="border-b" data-testid="store-row">
                    <td className="py-2 pr-3" data-label="Store">
                      <Link
                        href={`/staff/stores/${encodeURIComponent(s.id)}`}
                        className="underline"
                      >
                        {s.name}
                      </Link>
                      <div className="text-slate-600">{s.domain}</div>
                    </td>
                    <td className="py-2 pr-3" data-label="Products">
                      {s.product_count}
                    </td>
                    <td className="py-2 pr-3" data-label="Sync">
                      {s.sync.state}
                      <div className="text-slate-600">{formatTime(s.sync.finished_at)}</div>
                    </td>
                    <td className="py-2 pr-3" data-label="Verified">
                      {s.verified ? 'yes' : 'no'}
                    </td>
                    <td className="py-2" data-label="Access">
                      {s.access_policy}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
