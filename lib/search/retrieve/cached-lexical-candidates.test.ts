// @no-test-database
import { describe, expect, it } from 'vitest';
import { TERM_POSTINGS_READ } from '../index/term-floors';
import { pickLexicalCandidates } from './cached-lexical-candidates';
import type { LexicalQuery } from '../query/query-terms';
import { crowdedStores, type TermPostings } from './term-postings-cache';

/** A list of [store, product id, impact] postings, in product id order. */
function list(
  postings: Array<[string, number, number]>,
  extra: Partial<TermPostings> = {},
): TermPostings {
  const stores = [...new Set(postings.map(([store]) => store))];
  const held = {
    complete: true,
    stores,
    storeOf: Uint32Array.from(postings.map(([store]) => stores.indexOf(store))),
    productIds: Float64Array.from(postings.map(([, id]) => id)),
    impacts: Float32Array.from(postings.map(([, , impact]) => impact)),
    tf: Float32Array.from(postings.map(() => 1)),
    docLen: Float32Array.from(postings.map(() => 4)),
    ...extra,
  };
  // As the cache makes an entry (term-postings-cache.ts, toPostings).
  return { storeBest: held.complete ? crowdedStores(held) : new Map(), ...held };
}

const everyStore = { excludeStoreIds: [] };
const oneStore = (storeId: string) => ({ storeId, storeDocs: 10, vectorsVersion: 0 });

const query: LexicalQuery = {
  terms: [
    { term: 'lamp', weight: 1, floor: 1, df: 3, version: 1 },
    { term: 'brass', weight: 1, version: 2 },
  ],
  idfTotal: 2,
  avgdl: 4,
};

// Product 3 holds both words, but its `lamp` posting is below the term's floor: the SQL read of
// the best postings does not return it, so it competes on `brass` alone.
const lamp: Array<[string, number, number]> = [
  ['s1', 1, 0.5],
  ['s1', 2, 2],
  ['s2', 3, 0.8],
];
const brass = list([
  ['s1', 1, 1],
  ['s2', 3, 0.9],
]);

describe('the lexical pick from cached postings', () => {
  it('reads a whole list of a floored term only from its floor up, as the SQL read does', () => {
    const whole = list(lamp, { best: list([lamp[1]!]) });
    const bestOnly = list([lamp[1]!], { complete: false });
    const fromWhole = pickLexicalCandidates(query, [whole, brass], everyStore, 2);
    expect(fromWhole).toEqual(pickLexicalCandidates(query, [bestOnly, brass], everyStore, 2));
    expect(fromWhole).toEqual({ storeIds: ['s1', 's1'], productIds: [2, 1] });
    // Every posting read, product 3 would hold both words and come before product 2.
    expect(pickLexicalCandidates(query, [list(lamp), brass], everyStore, 2).productIds).toEqual([
      3, 1,
    ]);
  });

  it('leaves out the stores closed to the caller', () => {
    const whole = list(lamp, { best: list([lamp[1]!]) });
    expect(pickLexicalCandidates(query, [whole, brass], { excludeStoreIds: ['s1'] }, 5)).toEqual({
      storeIds: ['s2'],
      productIds: [3],
    });
  });

  it("reads one store's best postings of each term, below the floor too, as the SQL read does", () => {
    const whole = list(lamp, { best: list([lamp[1]!]) });
    // All stores, product 3's `lamp` is below the floor; in its own store it is read.
    expect(pickLexicalCandidates(query, [whole, brass], oneStore('s2'), 5)).toEqual({
      storeIds: ['s2'],
      productIds: [3],
    });
    expect(pickLexicalCandidates(query, [whole, brass], oneStore('s1'), 5)).toEqual({
      storeIds: ['s1', 's1'],
      productIds: [1, 2],
    });
    expect(pickLexicalCandidates(query, [whole, brass], oneStore('s9'), 5)).toEqual({
      storeIds: [],
      productIds: [],
    });
  });

  it("cuts each term to the store's best TERM_POSTINGS_READ postings, ties by product id", () => {
    // Product 1 holds both words with the lowest `lamp` impact of the store: past the cut, it
    // competes on `brass` alone. Of the products tying at the cut, the lowest ids are read.
    const many: Array<[string, number, number]> = [['s1', 1, 0.1]];
    for (let id = 2; id <= TERM_POSTINGS_READ + 2; id++) many.push(['s1', id, id <= 10 ? 3 : 1]);
    many.push(['s2', TERM_POSTINGS_READ + 5, 9]);
    const lampOnly: LexicalQuery = { ...query, terms: [query.terms[0]!] };
    const picked = pickLexicalCandidates(lampOnly, [list(many)], oneStore('s1'), 5000);
    expect(picked.productIds).toHaveLength(TERM_POSTINGS_READ);
    expect(picked.productIds).not.toContain(1);
    expect(picked.productIds).not.toContain(TERM_POSTINGS_READ + 2);
    expect(picked.productIds.slice(0, 9)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(picked.productIds.at(-1)).toBe(TERM_POSTINGS_READ + 1);
    const both = pickLexicalCandidates(query, [list(many), brass], oneStore('s1'), 1);
    expect(both.productIds).toEqual([2]);
  });

  it('refuses a one-store pick from a term held only from its floor up', () => {
    const bestOnly = list([lamp[1]!], { complete: false });
    expect(() => pickLexicalCandidates(query, [bestOnly, brass], oneStore('s1'), 5)).toThrow(
      /every posting/,
    );
  });
});
