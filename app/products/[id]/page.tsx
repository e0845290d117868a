import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { describeFailure } from '@/components/code-words';
import { formatPrice } from '@/components/format';
import { LoadFailure } from '@/components/load-failure';
import { realOptions, variantName } from '@/components/variant-words';
import { apiClientFromEnv } from '@/lib/api-client';
import { toResult } from '../../_server/action-result';
import { currentShopper } from '../../_server/catalogue';
import { payableHere } from '../../checkout/payment';
import { BuyButton } from './buy-button';
import { CheckoutButton } from './checkout-button';

export const dynamic = 'force-dynamic';

type SearchParams = Record<string, string | string[] | undefined>;

function one(value: string | string[] | undefined): string | undefined {
  const s = (Array.isArray(value) ? value[0] : value)?.trim();
  return s || undefined;
}

/**
 * The product by its id alone (the URL can be shared and bookmarked): `store` names its store
 * when several share an id, `from` carries the search that led here for the way back. Loaded
 * once per request for the title and the page, with the current profile's checkout links.
 */
const loadProduct = cache(async (id: string, store: string | undefined) => {
  const api = apiClientFromEnv();
  const shopper = await currentShopper(api);
  const result = await toResult(() =>
    api.getProduct(id, {
      ...(store ? { store_domain: store } : {}),
      ...(shopper.profileId ? { profile_id: shopper.profileId } : {}),
    }),
  );
  if (!result.ok && (result.code === 'PRODUCT_NOT_FOUND' || result.code === 'STORE_NOT_FOUND')) {
    notFound();
  }
  // The payment handlers of the store's UCP profile decide whether Buy opens a checkout.
  const handlers = result.ok
    ? await toResult(() => api.ucpBusinessProfile(result.data.product.store_id))
    : undefined;
  return { shopper, result, handlers: handlers?.ok ? handlers.data.payment.handlers : [] };
});

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { id } = await params;
  const { result } = await loadProduct(id, one((await searchParams).store));
  return {
    title: result.ok
      ? `${result.data.product.title} · ${result.data.product.store_name} · Commerce search`
      : 'Product · Commerce search',
  };
}

export default async function ProductPage({ params, searchParams }: Props) {
  const { id } = await params;
  const query = await searchParams;
  const from = one(query.from);
  const back = from ? `/search?${from}` : '/search';
  const { shopper, result, handlers } = await loadProduct(id, one(query.store));

  if (!result.ok) {
    return (
      <LoadFailure
        heading="Product"
        title="This product could not be shown"
        back={{ href: back, label: 'Back to the search' }}
      >
        {describeFailure(result.code, result.error)}
      </LoadFailure>
    );
  }

  const product = result.data.product;
  const options = realOptions(product.options);
  const checkoutCurrency = payableHere(handlers) ? product.currency : null;
  return (
    <article className="space-y-6">
      <Link href={back} className="underline">
        {from ? '← Back to results' : '← Search'}
      </Link>
      <header>
        <h1 className="text-2xl font-semibold">{product.title}</h1>
        <p className="text-slate-600">
          {product.store_name} · {product.store_domain}
          {product.product_type ? ` · ${product.product_type}` : ''}
        </p>
      </header>
      {product.images.length > 0 && (
        <ul className="flex gap-3 overflow-x-auto" aria-label="Images">
          {product.images.map((src, i) => (
            <li key={src} className="shrink-0">
              {/* Store images come from any shop's CDN: next/image would need each host allow-listed. */}
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img
                src={src}
                alt={`${product.title}, image ${i + 1}`}
                className="h-48 w-48 rounded object-cover"
              />
            </li>
          ))}
        </ul>
      )}
      {product.description && (
        <p className="max-w-prose whitespace-pre-line">{product.description}</p>
      )}
      {options.length > 0 && (
        <dl className="grid max-w-prose grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          {options.map((o) => (
            <div key={o.name} className="contents">
              <dt className="font-medium">{o.name}</dt>
              <dd>{o.values.join(', ')}</dd>
            </div>
          ))}
        </dl>
      )}
      <section aria-labelledby="variants-heading" className="space-y-3">
        <h2 id="variants-heading" className="text-lg font-semibold">
          {product.variants.length === 1 ? 'Buy' : 'Variants'}
        </h2>
        {!shopper.profileId && (
          <p className="text-sm text-slate-600">
            Buying needs a profile with a shipping address:{' '}
            <Link href="/profile" className="underline">
              set one up
            </Link>
            .
          </p>
        )}
        {checkoutCurrency ? (
          <p className="text-sm text-slate-600">
            Buy opens a checkout with the shipping options, a discount code and the total before you
            confirm.
          </p>
        ) : (
          <p className="text-sm text-slate-600" data-testid="no-checkout">
            This store cannot be bought through the dashboard’s checkout: it takes no payment the
            dashboard can make (
            {handlers.length
              ? `its payment handlers: ${handlers.map((h) => h.id).join(', ')}`
              : 'it names no payment handler'}
            ). Buy places the order at once instead, and payment is left pending at the store.
          </p>
        )}
        <ul className="space-y-3">
          {product.variants.map((v) => {
            const name = variantName(v.title);
            return (
              <li key={String(v.id)} className="card space-y-2" data-testid="variant">
                <p className="font-medium">
                  {name ? `${name} · ` : ''}
                  <span data-testid="variant-price">
                    {formatPrice(v.price, product.currency)}
                  </span>{' '}
                  <span className={v.available ? 'text-green-800' : 'text-red-800'}>
                    {v.available ? 'available' : 'sold out'}
                  </span>
                </p>
                <div className="flex flex-wrap items-start gap-3">
                  <a
                    className="btn btn-secondary"
                    href={v.checkout_url_with_shipping ?? v.checkout_url}
                    data-testid="checkout-link"
                    rel="noopener"
                  >
                    {v.checkout_url_with_shipping ? 'Checkout with my address' : 'Checkout'}
                  </a>
                  {checkoutCurrency ? (
                    <CheckoutButton
                      storeId={product.store_id}
                      variantId={String(v.id)}
                      currency={checkoutCurrency}
                      disabled={!v.available || !shopper.profileId}
                    />
                  ) : (
                    <BuyButton
                      storeId={product.store_id}
                      variantId={String(v.id)}
                      label={name ? `${product.title} (${name})` : product.title}
                      disabled={!v.available || !shopper.profileId}
                    />
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      </section>
    </article>
  );
}
