// @no-test-database
import { describe, expect, it } from 'vitest';
import { pickLexicalCandidates } from './cached-lexical-candidates';
import type { LexicalQuery } from '../query/query-terms';
import type { TermPostings } from './term-postings-cache';

/** A list of [store, product id, impact] postings, in product id order. */
function list(postings: Array<[string, number, number]>, extra: Partial<TermPostings> = {}) {
  const stores = [...new Set(postings.map(([store]) => store))];
  return {
    complete: true,
    stores,
    storeOf: Uint32Array.from(postings.map(([store]) => stores.indexOf(store))),
    productIds: Float64Array.from(postings.map(([, id]) => id)),
    impacts: Float32Array.from(postings.map(([, , impact]) => impact)),
    tf: Float32Array.from(postings.map(() => 1)),
    docLen: Float32Array.from(postings.map(() => 4)),
    ...extra,
  } satisfies TermPostings;
}

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
    const fromWhole = pickLexicalCandidates(query, [whole, brass], [], 2);
    expect(fromWhole).toEqual(pickLexicalCandidates(query, [bestOnly, brass], [], 2));
    expect(fromWhole).toEqual({ storeIds: ['s1', 's1'], productIds: [2, 1] });
    // Every posting read, product 3 would hold both words and come before product 2.
    expect(pickLexicalCandidates(query, [list(lamp), brass], [], 2).productIds).toEqual([3, 1]);
  });

  it('leaves out the stores closed to the caller', () => {
    const whole = list(lamp, { best: list([lamp[1]!]) });
    expect(pickLexicalCandidates(query, [whole, brass], ['s1'], 5)).toEqual({
      storeIds: ['s2'],
      productIds: [3],
    });
  });
});
