import type { Metadata } from 'next';
import Link from 'next/link';
import { describeFailure } from '@/components/code-words';
import { formatMinor } from '@/components/format';
import { LoadFailure } from '@/components/load-failure';
import { apiClientFromEnv } from '@/lib/api-client';
import { toResult } from '../../../../_server/action-result';
import { amountOf, TotalsCard } from '../../../totals';

export const metadata: Metadata = { title: 'Order · Commerce search' };
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ store: string; id: string }>;
}

/** The order a dashboard checkout placed, as the store's UCP order route answers it. */
export default async function CheckoutOrderPage({ params }: Props) {
  const { store, id } = await params;
  const api = apiClientFromEnv();
  const loaded = await toResult(async () => {
    const checkout = await api.getCheckout(store, id);
    if (!checkout.order) return { checkout, order: undefined };
    return { checkout, order: await api.getUcpOrder(store, checkout.order.id) };
  });
  const back = `/checkout/${encodeURIComponent(store)}/${encodeURIComponent(id)}`;
  if (!loaded.ok || !loaded.data.order) {
    return (
      <LoadFailure
        heading="Order"
        title="This order could not be shown"
        back={{ href: back, label: 'Back to the checkout' }}
      >
        {loaded.ok
          ? 'This checkout has placed no order yet.'
          : describeFailure(loaded.code, loaded.error)}
      </LoadFailure>
    );
  }
  const { checkout, order } = loaded.data;
  const money = (amount: number) => formatMinor(amount, checkout.currency);
  const events = order.fulfillment.events;
  const latest = events.at(-1)?.type;
  return (
    <article className="space-y-6">
      <header>
        <h1 className="text-2xl font-semibold">Order {order.id}</h1>
        <p className="text-slate-600" data-testid="fulfillment-state">
          {typeof latest === 'string' ? `Fulfillment: ${latest}` : 'Not shipped yet'}
        </p>
      </header>
      <section aria-labelledby="order-items" className="card space-y-2">
        <h2 id="order-items" className="text-lg font-semibold">
          Items
        </h2>
        <ul>
          {order.line_items.map((line) => (
            <li key={line.id} data-testid="order-line">
              {line.quantity.total} × {line.item.title} · {money(amountOf(line.totals))}
            </li>
          ))}
        </ul>
        {order.fulfillment.expectations.map((e) => (
          <p key={e.id} className="text-sm text-slate-600">
            {e.description ?? e.method_type} to {e.destination.street_address},{' '}
            {e.destination.address_locality} {e.destination.postal_code}
          </p>
        ))}
      </section>
      <TotalsCard totals={order.totals} currency={checkout.currency} />
      <Link href={back} className="underline">
        Back to the checkout
      </Link>
    </article>
  );
}
