import { HTTPError } from 'ky';
import { platformSettings } from './settings';
import { nextPage, readClient, shopifyErrors, transportReason } from './shopify-http';
import type { PlatformStock, StoreConnection } from './types';

type AdminVariant = {
  id?: number | string;
  inventory_quantity?: number | null;
  inventory_management?: string | null;
  inventory_policy?: string | null;
};

/**
 * Stock through the Admin REST API's products (`GET products.json?fields=id,variants`, every
 * page by its cursor link): a variant whose stock Shopify tracks (`inventory_management`) and
 * may not oversell (`inventory_policy` deny) has its `inventory_quantity`; any other is not
 * limited by stock (null). The storefront's products.json says only `available`.
 */
export async function readStock(connection: StoreConnection): Promise<PlatformStock> {
  const settings = platformSettings();
  const api = readClient(connection, settings);
  const stock: { variantId: string; quantity: number | null }[] = [];
  let searchParams: URLSearchParams | undefined = new URLSearchParams({
    limit: '250',
    fields: 'id,variants',
  });
  const seen = new Set<string>();
  try {
    while (searchParams) {
      const response = await api.get('products.json', { searchParams });
      const body: { products?: Array<{ variants?: AdminVariant[] }> } = await response.json();
      for (const variant of (body.products ?? []).flatMap((p) => p.variants ?? [])) {
        if (variant.id === undefined) continue;
        const limited = variant.inventory_management && variant.inventory_policy !== 'continue';
        stock.push({
          variantId: String(variant.id),
          quantity: limited ? Math.max(0, variant.inventory_quantity ?? 0) : null,
        });
      }
      searchParams = nextPage(response);
      const cursor = searchParams?.get('page_info') ?? '';
      if (searchParams && seen.has(cursor)) {
        return { ok: false, reason: 'Shopify linked a page of products already read' };
      }
      seen.add(cursor);
    }
    return { ok: true, stock };
  } catch (error) {
    const reason =
      error instanceof HTTPError
        ? `Shopify answered ${error.response.status}: ${await shopifyErrors(error.response)}`
        : transportReason(error, settings);
    return { ok: false, reason };
  }
}
