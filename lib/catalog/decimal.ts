/**
 * Prices as exact decimals: Shopify sends them as strings ("48.00"), and binary floating point
 * cannot hold most cents exactly. Amounts are kept as canonical strings with two decimals and
 * compared as integer cents, never as floats.
 */
export function toPriceString(input: string | number): string {
  const text = typeof input === 'number' ? numberToPlain(input) : input.trim();
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match)
    throw new Error(`price "${String(input).slice(0, 40)}" is not a non-negative decimal`);
  const whole = match[1]!.replace(/^0+(?=\d)/, '');
  const fraction = match[2] ?? '';
  let cents = BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2));
  // Half-up rounding of any digits past the cent, as numeric(12,2) would store them.
  if ((fraction[2] ?? '0') >= '5') cents += 1n;
  if (cents >= 10n ** 12n) throw new Error(`price "${text.slice(0, 40)}" is out of range`);
  return centsToString(cents);
}

function numberToPlain(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  // toString may use exponent notation for tiny or huge values; fixed notation keeps digits.
  return Math.abs(value) < 1e-6 || Math.abs(value) >= 1e21 ? value.toFixed(6) : String(value);
}

export function toCents(price: string): bigint {
  const [whole, fraction = '00'] = price.split('.');
  return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
}

export function centsToString(cents: bigint): string {
  const whole = cents / 100n;
  const fraction = (cents % 100n).toString().padStart(2, '0');
  return `${whole}.${fraction}`;
}

/** The sum of price × quantity over lines, exact to the cent. */
export function totalPrice(lines: readonly { price: string; quantity: number }[]): bigint {
  return lines.reduce((sum, l) => sum + toCents(l.price) * BigInt(l.quantity), 0n);
}

export function minPrice(prices: string[]): string | null {
  return prices.reduce<string | null>(
    (best, p) => (best === null || toCents(p) < toCents(best) ? p : best),
    null,
  );
}

export function maxPrice(prices: string[]): string | null {
  return prices.reduce<string | null>(
    (best, p) => (best === null || toCents(p) > toCents(best) ? p : best),
    null,
  );
}
