export function formatPrice(value: string | number): string {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n.toFixed(2) : String(value);
}

/** "12.00" or "12.00 – 30.00" over the variants' prices. */
export function priceRange(prices: Array<string | number>): string {
  const values = prices.map(Number).filter(Number.isFinite);
  if (values.length === 0) return 'No price';
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? formatPrice(low) : `${formatPrice(low)} – ${formatPrice(high)}`;
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
}
