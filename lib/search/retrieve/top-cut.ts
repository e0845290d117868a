/**
 * The indexes of every value at least the `limit`-th largest: the only ones a full order by
 * value can put first, ties included. A common term names thousands of products; sorting them
 * all with the order's comparator took as long as summing their postings, and a typed array's
 * numeric sort finds the cut in a fraction of that. Values must not be NaN.
 */
export function atLeastCut(values: Float64Array, limit: number): number[] {
  if (limit <= 0) return [];
  const cut = values.length > limit ? values.slice().sort()[values.length - limit]! : -Infinity;
  const kept: number[] = [];
  for (let i = 0; i < values.length; i++) if (values[i]! >= cut) kept.push(i);
  return kept;
}
