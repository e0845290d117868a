import type { LexicalQuery } from './query-terms';
import { BM25_FULL, COVERAGE_SHARE } from './score';
import type { TermPostings } from './term-postings-cache';

export interface PickedCandidates {
  storeIds: string[];
  productIds: number[];
}

/** Code-unit order, which is the database's for `COLLATE "C"`. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * An all-stores search's lexical candidates from its terms' cached postings: the same products
 * in the same order as retrieve.ts's lexicalCandidates computes in SQL, to the bit. Each product's
 * sums take its postings in the query's term order, as the SQL aggregate receives them; the
 * similarity repeats lexicalSimilaritySql's operations in its order; ties go by store id (code
 * units, as `COLLATE "C"`) and product id. Product ids are unique across stores, so they key the
 * sums alone.
 */
export function pickLexicalCandidates(
  lex: LexicalQuery,
  lists: readonly TermPostings[],
  excludedStores: readonly string[],
  limit: number,
): PickedCandidates {
  const excluded = new Set(excludedStores);
  const slot = new Map<number, number>();
  const store: string[] = [];
  const product: number[] = [];
  const bm25: number[] = [];
  const matched: number[] = [];
  lex.terms.forEach((term, t) => {
    const list = lists[t]!;
    const open = list.stores.map((s) => !excluded.has(s));
    for (let k = 0; k < list.productIds.length; k++) {
      const s = list.storeOf[k]!;
      if (!open[s]) continue;
      const id = list.productIds[k]!;
      let at = slot.get(id);
      if (at === undefined) {
        at = product.push(id) - 1;
        slot.set(id, at);
        store.push(list.stores[s]!);
        bm25.push(0);
        matched.push(0);
      }
      bm25[at]! += term.weight * list.impacts[k]!;
      matched[at]! += term.weight;
    }
  });
  const total = Math.max(lex.idfTotal, 1e-9);
  const similarity = product.map(
    (_, i) =>
      COVERAGE_SHARE * Math.min(1, matched[i]! / total) +
      (1 - COVERAGE_SHARE) * Math.min(1, bm25[i]! / total / BM25_FULL),
  );
  const order = product.map((_, i) => i);
  order.sort(
    (a, b) =>
      similarity[b]! - similarity[a]! ||
      compareText(store[a]!, store[b]!) ||
      product[a]! - product[b]!,
  );
  const top = order.slice(0, limit);
  return { storeIds: top.map((i) => store[i]!), productIds: top.map((i) => product[i]!) };
}
