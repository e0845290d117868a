// @no-test-database
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../retrieve/candidate';
import { FEATURE_NAMES, rankingFeatures, type FeatureName, type RankingQuery } from './features';

function candidate(title: string, matched: string[], extra: Partial<Candidate> = {}): Candidate {
  return {
    productId: 1,
    storeId: 'store_1',
    available: true,
    bm25: 1,
    coverage: 1,
    matched,
    title,
    textCosine: 0.5,
    imageCosine: null,
    styleCosine: null,
    ...extra,
  };
}

function query(terms: string[]): RankingQuery {
  return { terms: terms.map((term) => ({ term, weight: 1 })), idfTotal: terms.length };
}

/** The named features of each candidate. */
function featuresOf(q: RankingQuery, candidates: Candidate[]): Array<Record<FeatureName, number>> {
  return rankingFeatures(q, candidates).map(
    (row) =>
      Object.fromEntries(FEATURE_NAMES.map((n, i) => [n, row[i]!])) as Record<FeatureName, number>,
  );
}

describe('ranking features', () => {
  it('rewards the query words side by side in the title over the same words apart', () => {
    const q = query(['table', 'lamp']);
    const [together, apart] = featuresOf(q, [
      candidate('Rustic Table Lamp', ['table', 'lamp']),
      candidate('Lamp Shade for Table Saw Light', ['table', 'lamp']),
    ]);
    expect(together!.phrase).toBe(1);
    expect(apart!.phrase).toBe(0);
    expect(together!.proximity).toBe(1);
    // "lamp shade table" once the stopword "for" is dropped: 2 words in a window of 3.
    expect(apart!.proximity).toBeCloseTo(2 / 3);
    expect(together!.head_term).toBe(1);
  });

  it('tells whether the head word (the last one) and the title hold the query', () => {
    const q = query(['cordless', 'drill']);
    const [bits] = featuresOf(q, [
      candidate('Cordless Screwdriver Bit Set', ['cordless', 'drill']),
    ]);
    // The product holds "drill" somewhere (its description), but not in its title.
    expect(bits!.head_term).toBe(0);
    expect(bits!.title_coverage).toBeCloseTo(0.5);
  });

  it('marks exact model numbers, units and numbers held or missed', () => {
    const q = query(['dw089k', 'laser']);
    const [hit, miss] = featuresOf(q, [
      candidate('DeWalt DW089K Line Laser', ['dw089k', 'laser'], { coverage: 1 }),
      candidate('Green Line Laser', ['laser'], { coverage: 0.5 }),
    ]);
    expect([hit!.model_match, hit!.model_miss]).toEqual([1, 0]);
    expect([miss!.model_match, miss!.model_miss]).toEqual([0, 1]);

    const units = query(['0.75in', '0.75', 'copper', 'pipe']);
    const [sized, other] = featuresOf(units, [
      candidate('Copper Pipe 3/4 in.', ['0.75in', '0.75', 'copper', 'pipe']),
      candidate('Copper Pipe 1/2 in.', ['copper', 'pipe']),
    ]);
    expect([sized!.unit_match, sized!.unit_miss, sized!.number_miss]).toEqual([1, 0, 0]);
    expect([other!.unit_match, other!.unit_miss, other!.number_miss]).toEqual([0, 1, 1]);
  });

  it('carries the retrieval signals, availability and a missing vector as they are', () => {
    const [f] = featuresOf(query(['hose']), [
      candidate('Garden Hose', ['hose'], {
        coverage: 0.8,
        bm25: 9,
        textCosine: null,
        available: false,
      }),
    ]);
    expect(f!.coverage).toBe(0.8);
    expect(f!.bm25).toBe(3);
    expect([f!.vector, f!.no_vector, f!.available]).toEqual([0, 1, 0]);
    expect(f!.title_length).toBeCloseTo(Math.log1p(2));
  });

  it('gives title BM25 less to a long title holding the terms once than to a short one', () => {
    const [short, long] = featuresOf(query(['garden', 'hose']), [
      candidate('Garden Hose', ['garden', 'hose']),
      candidate('Garden Hose Reel Cart with Wheels and Steel Frame', ['garden', 'hose']),
    ]);
    expect(short!.title_bm25).toBeGreaterThan(long!.title_bm25);
    expect(short!.title_coverage).toBe(1);
    expect(long!.title_coverage).toBe(1);
  });

  it('gives every candidate a number for every feature', () => {
    const q: RankingQuery = {
      terms: ['dw089k', '0.75in', '2', 'cordless', 'drill'].map((term) => ({ term, weight: 1 })),
      idfTotal: 5,
    };
    const rows = rankingFeatures(q, [
      candidate('DeWalt DW089K Cordless Drill 0.75 in. 2-Pack', ['dw089k', 'cordless', 'drill']),
      candidate('Garden Hose', [], { coverage: 0, bm25: 0, textCosine: null }),
    ]);
    for (const row of rows) {
      expect(row).toHaveLength(FEATURE_NAMES.length);
      for (const value of row) expect(Number.isFinite(value)).toBe(true);
    }
  });
});
