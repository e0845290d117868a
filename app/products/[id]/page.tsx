import type { Metadata } from 'next';
import Link from 'next/link';
import { describeFailure } from '@/components/code-words';
import { formatPrice } from '@/components/format';
import { Notice } from '@/components/notice';
import { apiClientFromEnv } from '@/lib/api-client';
import { toResult } from '../../_server/action-result';
import { currentShopper } from '../../_server/catalogue';
import { parseSearchParams, toQueryString, toSearchRequest } from '../../search/params';
import { BuyButton } from './buy-button';

export const metadata: Metadata = { title: 'Product · Commerce search' };
export const dynamic = 'force-dynamic';

/**
 * The product as the search that led here returned it: the URL carries that search, and its
 * results carry the checkout links personalized for the current profile.
 */
export default async function ProductPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const search = parseSearchParams(await searchParams);
  const back = `/search?${toQueryString(search)}`;
  const api = apiClientFromEnv();
  const shopper = await currentShopper(api);
  const outcome = search.q
    ? await toResult(() => api.searchProducts(toSearchRequest(search, shopper.profileId)))
    : undefined;
  const product = outcome?.ok ? outcome.data.results.find((p) => p.id === id) : undefined;

  if (!product) {
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold">Product</h1>
        <Notice tone="error" title="This product could not be shown">
          {outcome && !outcome.ok
            ? describeFailure(outcome.code, outcome.error)
            : 'It is no longer among the results of the search that led here. Search again to find it.'}
        </Notice>
        <Link href={back} className="underline">
          Back to the search
        </Link>
      </div>
    );
  }

  return (
    <article className="space-y-6">
      <Link href={back} className="underline">
        ← Back to results
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
      {product.options.length > 0 && (
        <dl className="grid max-w-prose grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          {product.options.map((o) => (
            <div key={o.name} className="contents">
              <dt className="font-medium">{o.name}</dt>
              <dd>{o.values.join(', ')}</dd>
            </div>
          ))}
        </dl>
      )}
      <section aria-labelledby="variants-heading" className="space-y-3">
        <h2 id="variants-heading" className="text-lg font-semibold">
          Variants
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
        <ul className="space-y-3">
          {product.variants.map((v) => (
            <li key={String(v.id)} className="card space-y-2" data-testid="variant">
              <p className="font-medium">
                {v.title} · {formatPrice(v.price)}{' '}
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
                <BuyButton
                  storeId={product.store_id}
                  variantId={String(v.id)}
                  label={`${product.title} (${v.title})`}
                  disabled={!v.available || !shopper.profileId}
                />
              </div>
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}
