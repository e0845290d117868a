import type { Metadata } from 'next';
import { describeFailure } from '@/components/code-words';
import { LoadFailure } from '@/components/load-failure';
import { apiClientFromEnv } from '@/lib/api-client';
import { toResult } from '../../../_server/action-result';
import { CheckoutPanel } from './checkout-panel';

export const metadata: Metadata = { title: 'Checkout · Commerce search' };
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ store: string; id: string }>;
}

/**
 * A UCP checkout session of the dashboard (made by a product page's Buy): its items, shipping
 * options, discount codes and totals, as the store's UCP routes answer them, before the shopper
 * confirms.
 */
export default async function CheckoutPage({ params }: Props) {
  const { store, id } = await params;
  const loaded = await toResult(() => apiClientFromEnv().getCheckout(store, id));
  if (!loaded.ok) {
    return (
      <LoadFailure
        heading="Checkout"
        title="This checkout could not be shown"
        back={{ href: '/search', label: 'Back to the search' }}
      >
        {describeFailure(loaded.code, loaded.error)}
      </LoadFailure>
    );
  }
  return (
    <article className="space-y-6">
      <h1 className="text-2xl font-semibold">Checkout</h1>
      <CheckoutPanel storeId={store} initial={loaded.data} />
    </article>
  );
}
