import type { Metadata } from 'next';
import Link from 'next/link';
import { describeFailure } from '@/components/code-words';
import { formatTime } from '@/components/format';
import { LoadFailure } from '@/components/load-failure';
import { Notice } from '@/components/notice';
import { OrdersTable } from '@/components/orders-table';
import { operatorClientFromEnv } from '@/lib/api-client';
import { toResult } from '../../../_server/action-result';
import { requireStaff } from '../../../_server/staff-session';
import { PolicyPanel, TokenPanel } from './store-settings';
import { SyncPanel } from './sync-panel';

export const metadata: Metadata = { title: 'Store · Staff · Commerce search' };
export const dynamic = 'force-dynamic';

export default async function StorePage({ params }: { params: Promise<{ id: string }> }) {
  await requireStaff();
  const { id } = await params;
  const api = operatorClientFromEnv();
  if (!api)
    return <Notice tone="error">This server has no operator token (set OPERATOR_TOKEN).</Notice>;
  const [loaded, errors, orders] = await Promise.all([
    toResult(() => api.getStore(id)),
    toResult(() => api.syncErrors(id)),
    toResult(() => api.storeOrders(id)),
  ]);
  if (!loaded.ok) {
    return (
      <LoadFailure
        heading="Store"
        title="This store could not be loaded"
        back={{ href: '/staff', label: 'Back to stores' }}
      >
        {describeFailure(loaded.code, loaded.error)}
      </LoadFailure>
    );
  }
  const store = loaded.data.store;
  return (
    <div className="space-y-6">
      <Link href="/staff" className="underline">
        ← All stores
      </Link>
      <header>
        <h1 className="text-2xl font-semibold">{store.name}</h1>
        <p className="text-slate-600">
          {store.domain} · {store.platform} · id <span className="font-mono">{store.id}</span> ·
          registered {formatTime(store.created_at)}
          {store.base_url && ` · fetched from ${store.base_url}`}
        </p>
      </header>
      <SyncPanel initial={store} />
      <section aria-labelledby="errors-heading" className="card space-y-2">
        <h2 id="errors-heading" className="text-lg font-semibold">
          Sync errors
        </h2>
        {!errors.ok ? (
          <Notice tone="error">{describeFailure(errors.code, errors.error)}</Notice>
        ) : errors.data.errors.length === 0 ? (
          <p>No records were skipped.</p>
        ) : (
          <ul className="list-disc pl-5 text-sm">
            {errors.data.errors.map((e, i) => (
              <li key={i}>
                {formatTime(e.created_at)} · {e.external_id ? `product ${e.external_id}: ` : ''}
                {e.message}
              </li>
            ))}
          </ul>
        )}
      </section>
      <TokenPanel store={store} />
      <PolicyPanel store={store} />
      <section aria-labelledby="orders-heading" className="card space-y-2">
        <h2 id="orders-heading" className="text-lg font-semibold">
          Orders placed in this store
        </h2>
        {orders.ok ? (
          <OrdersTable orders={orders.data.orders} caption="Orders placed in this store" />
        ) : (
          <Notice tone="error">{describeFailure(orders.code, orders.error)}</Notice>
        )}
      </section>
    </div>
  );
}
