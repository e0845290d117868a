/** A payment handler a store accepts, as UCP's profile lists it (id, name, version, config...). */
export type PaymentHandlerConfig = { id: string } & Record<string, unknown>;

/**
 * A store's checkout rules, as its platform serves them (lib/platforms) or a UCP test-data
 * directory holds them (lib/ucp/rules/read.ts: discounts.csv, promotions.csv, shipping_rates.csv,
 * customers.csv, addresses.csv, inventory.csv, payment_handlers.json). An absent part is
 * undefined, and leaves that part of the store's rules as it is.
 */
export interface StoreRules {
  /**
   * Discount codes: `percentage` (value a whole percent) and `fixed_amount` (value in minor
   * units) off the items' subtotal; `free_shipping` takes the chosen shipping's price off, its
   * value unused and written as 0.
   */
  discounts?: {
    code: string;
    type: 'percentage' | 'fixed_amount' | 'free_shipping';
    value: number;
    description: string;
  }[];
  promotions?: {
    id: string;
    type: 'free_shipping';
    minSubtotal: number | null;
    eligibleItemIds: string[];
    description: string;
  }[];
  shippingRates?: {
    id: string;
    countryCode: string;
    serviceLevel: string;
    price: number;
    title: string;
  }[];
  customers?: { id: string; name: string; email: string }[];
  addresses?: {
    id: string;
    customerId: string;
    streetAddress: string;
    city: string;
    region: string;
    postalCode: string;
    country: string;
    extendedAddress?: string | null;
    firstName?: string | null;
    lastName?: string | null;
  }[];
  inventory?: { itemId: string; quantity: number }[];
  paymentHandlers?: PaymentHandlerConfig[];
}
