import type { ShippingRecord } from '../../contract/shipping';

/** `https://{domain}/cart/{variant}:1`: the store's own cart permalink for one unit. */
export function checkoutUrl(storeDomain: string, variantId: string): string {
  return `https://${storeDomain}/cart/${encodeURIComponent(variantId)}:1`;
}

/** The same link with the profile's address pre-filled, every value URL-encoded. */
export function checkoutUrlWithShipping(
  storeDomain: string,
  variantId: string,
  address: ShippingRecord,
): string {
  const params = new URLSearchParams({
    'checkout[email]': address.email,
    'checkout[shipping_address][first_name]': address.first_name,
    'checkout[shipping_address][last_name]': address.last_name,
    'checkout[shipping_address][address1]': address.address_1,
    'checkout[shipping_address][city]': address.city,
    'checkout[shipping_address][province]': address.province_code,
    'checkout[shipping_address][country]': address.country_code,
    'checkout[shipping_address][zip]': address.postal_code,
  });
  return `${checkoutUrl(storeDomain, variantId)}?${params.toString()}`;
}
