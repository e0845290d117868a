import { centsToString } from '@/lib/catalog/decimal';

/** "$12.00" with the store's currency (ISO 4217), "12.00" when it is not known. */
export function formatPrice(value: string | number, currency?: string | null): string {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return String(value);
  if (!currency) return n.toFixed(2);
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(n);
  } catch {
    // A code Intl does not know still says which money it is.
    return `${n.toFixed(2)} ${currency}`;
  }
}

/**
 * An amount in integer minor units (as UCP checkouts carry them: the catalogue's two decimals)
 * for display: 1250 in USD is "$12.50". The decimal is made exactly; only Intl sees a number.
 */
export function formatMinor(amount: number, currency: string): string {
  const sign = amount < 0 ? '−' : '';
  return sign + formatPrice(centsToString(BigInt(Math.abs(amount))), currency);
}

/** "$12.00" or "$12.00 – $30.00" over the variants' prices. */
export function priceRange(prices: Array<string | number>, currency?: string | null): string {
  const values = prices.map(Number).filter(Number.isFinite);
  if (values.length === 0) return 'No price';
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high
    ? formatPrice(low, currency)
    : `${formatPrice(low, currency)} – ${formatPrice(high, currency)}`;
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
}
