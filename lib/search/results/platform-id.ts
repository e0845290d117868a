/**
 * A platform id as our responses give it: a number where the platform's id is an integer (as
 * Shopify's are, and as the API has always answered them), the id as given otherwise (a UCP
 * test-data shop's `bouquet_roses`).
 */
export function platformId(externalId: string): number | string {
  const n = Number(externalId);
  return /^\d+$/.test(externalId) && Number.isSafeInteger(n) ? n : externalId;
}
