/**
 * The nearest-rank percentile (the smallest value with at least p % of the values at or below
 * it; no interpolation, so it is always a measured time), rounded to 0.1. 0 for no values.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[rank]! * 10) / 10;
}
