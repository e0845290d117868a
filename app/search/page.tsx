import type { Metadata } from 'next';
import { describeFailure } from '@/components/code-words';
import { Notice } from '@/components/notice';
import { ProductCard } from '@/components/product-card';
import { apiClientFromEnv, type SearchProduct } from '@/lib/api-client';
import { toResult } from '../_server/action-result';
import { currentShopper, storeChoices } from '../_server/catalogue';
import { parseSearchParams, toQueryString, toSearchRequest } from './params';
import { SearchForm } from './search-form';

export const metadata: Metadata = { title: 'Search · Commerce search' };
export const dynamic = 'force-dynamic';

/** The product's own address, with its store and the way back to this search. */
function productHref(product: SearchProduct, search: string): string {
  const qs = new URLSearchParams({ store: product.store_domain, from: search });
  return `/products/${encodeURIComponent(product.id)}?${qs}`;
}

export default async function SearchPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const api = apiClientFromEnv();
  const [shopper, stores] = await Promise.all([currentShopper(api), storeChoices(api)]);
  // Without a chosen store the API searches every store open to the dashboard's developer.
  const params = parseSearchParams(await searchParams);
  const outcome = params.q
    ? await toResult(() => api.searchProducts(toSearchRequest(params, shopper.profileId)))
    : undefined;
  const query = toQueryString(params);

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Search products</h1>
      <SearchForm key={query} initial={params} hasStyle={shopper.hasStyle} stores={stores} />
      {!shopper.profileId && !outcome && (
        <p className="text-sm text-slate-600">
          Tip: choose a profile on the Profile page to personalize results by style and get checkout
          links with your address filled in.
        </p>
      )}
      <section aria-labelledby="results-heading" aria-live="polite" className="space-y-3">
        <h2 id="results-heading" className="sr-only">
          Results
        </h2>
        {!outcome && (
          <p>
            {stores.length > 0 || params.store
              ? 'Type what you are looking for and press Search.'
              : 'No store is open to this dashboard yet, so there is nothing to search. Store staff can register one on the Staff pages.'}
          </p>
        )}
        {outcome && !outcome.ok && (
          <Notice tone="error" title="The search failed">
            {describeFailure(outcome.code, outcome.error)}
          </Notice>
        )}
        {outcome?.ok && outcome.data.results.length === 0 && (
          <Notice tone="info" title="No products matched">
            Nothing matched “{params.q}” with these settings. Try other words, a lower similarity
            threshold, a wider price range or another store.
          </Notice>
        )}
        {outcome?.ok && outcome.data.results.length > 0 && (
          <>
            <p data-testid="result-count">
              {outcome.data.results.length} product{outcome.data.results.length === 1 ? '' : 's'}{' '}
              for “{params.q}”
            </p>
            <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
              {outcome.data.results.map((product) => (
                <ProductCard
                  key={product.id}
                  product={product}
                  href={productHref(product, query)}
                />
              ))}
            </ul>
          </>
        )}
      </section>
    </div>
  );
}
