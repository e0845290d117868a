import { platformSettings } from './settings';
import { readClient, readEveryPage, readFailure } from './shopify-http';
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
  const stock: { variantId: string; quantity: number | null }[] = [];
  try {
    await readEveryPage(
      readClient(connection, settings),
      'products.json',
      new URLSearchParams({ limit: '250', fields: 'id,variants' }),
      (body) => {
        const { products = [] } = body as { products?: Array<{ variants?: AdminVariant[] }> };
        for (const variant of products.flatMap((p) => p.variants ?? [])) {
          if (variant.id === undefined) continue;
          const limited = variant.inventory_management && variant.inventory_policy !== 'continue';
          stock.push({
            variantId: String(variant.id),
            quantity: limited ? Math.max(0, variant.inventory_quantity ?? 0) : null,
          });
        }
      },
    );
    return { ok: true, stock };
  } catch (error) {
    return { ok: false, reason: await readFailure(error, settings) };
  }
}
