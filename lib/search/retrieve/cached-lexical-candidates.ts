import type { LexicalQuery } from '../query/query-terms';
import { numbers } from '../rank/arithmetic';
import { lexicalSimilarityOf } from '../rank/score';
import type { SearchScope } from './request';
import type { PickedPostings, TermPostings } from './term-postings-cache';
import { atLeastCut } from './top-cut';

export interface PickedCandidates {
  storeIds: string[];
  productIds: number[];
}

/** Code-unit order, which is the database's for `COLLATE "C"`. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * What a one-store search reads of a term the list holds whole, as lexical-sql.ts's
 * bestPostingsOfStore does: the store's best postings when it holds more than that, else the
 * whole list, of which the pick then takes the store's own.
 */
function storeRead(list: TermPostings, storeId: string): PickedPostings {
  if (!list.complete) throw new Error("a one-store pick needs each term's every posting");
  return list.storeBest.get(list.stores.indexOf(storeId)) ?? list;
}

/**
 * A search's lexical candidates from its terms' cached postings: the same products in the same
 * order as lexical-sql.ts's lexicalCandidatesCte computes in SQL, to the bit. All stores: each
 * term's postings from its floor up (postingsFromFloor), the closed stores left out; one store:
 * the store's best postings of each term (bestPostingsOfStore), which needs every term held
 * whole. Each product's sums take its postings in the query's term order, as the SQL aggregate
 * receives them; the similarity is the same formula (score.ts lexicalSimilarityOf) on numbers;
 * ties go by store id (code units, as `COLLATE "C"`) and product id. Product ids are unique
 * across stores, so they key the sums alone.
 */
export function pickLexicalCandidates(
  lex: LexicalQuery,
  lists: readonly TermPostings[],
  scope: SearchScope,
  limit: number,
): PickedCandidates {
  const excluded = new Set('storeId' in scope ? [] : scope.excludeStoreIds);
  const inScope = (store: string) =>
    'storeId' in scope ? store === scope.storeId : !excluded.has(store);
  const open = lists.map((list) => list.stores.map(inScope));
  const weights = lex.terms.map((t) => t.weight);
  // The postings the SQL read of each term returns. All stores: those that reach its floor when
  // the list holds all of them (best), else every one it holds.
  const read = lists.map((list) =>
    'storeId' in scope ? storeRead(list, scope.storeId) : (list.best ?? list),
  );
  const room = read.reduce((n, list) => n + list.productIds.length, 0);
  const product = new Float64Array(room);
  const store: string[] = [];
  const bm25 = new Float64Array(room);
  const matched = new Float64Array(room);
  let count = 0;
  // Each list is in product id order: one merge of them meets each product's postings together,
  // in the query's term order, with no table of the products met so far.
  const next = lists.map(() => 0);
  for (;;) {
    let id = Infinity;
    for (let t = 0; t < read.length; t++) {
      const ids = read[t]!.productIds;
      if (next[t]! < ids.length && ids[next[t]!]! < id) id = ids[next[t]!]!;
    }
    if (id === Infinity) break;
    let sum = 0;
    let weight = 0;
    let from: string | undefined;
    for (let t = 0; t < read.length; t++) {
      const list = read[t]!;
      const k = next[t]!;
      if (list.productIds[k] !== id) continue;
      next[t] = k + 1;
      const s = list.storeOf[k]!;
      if (!open[t]![s]) continue;
      sum += weights[t]! * list.impacts[k]!;
      weight += weights[t]!;
      from = lists[t]!.stores[s]!;
    }
    if (from === undefined) continue;
    product[count] = id;
    bm25[count] = sum;
    matched[count] = weight;
    store.push(from);
    count++;
  }
  const total = Math.max(lex.idfTotal, 1e-9);
  const similarity = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    similarity[i] = lexicalSimilarityOf(numbers, matched[i]! / total, bm25[i]! / total);
  }
  const top = atLeastCut(similarity, limit).sort(
    (a, b) =>
      similarity[b]! - similarity[a]! ||
      compareText(store[a]!, store[b]!) ||
      product[a]! - product[b]!,
  );
  top.length = Math.min(top.length, limit);
  return { storeIds: top.map((i) => store[i]!), productIds: top.map((i) => product[i]!) };
}
