// @no-test-database
import { describe, expect, it } from 'vitest';
import { analyze, queryTerms } from './analyzer';
import { rewriteTerms, vocabularyLookups } from './query-terms';

/** A catalogue vocabulary: term -> document frequency. */
function vocabulary(entries: Record<string, number>) {
  return (term: string) => entries[term] ?? 0;
}

describe('query rewriting by the catalogue vocabulary', () => {
  it('keeps a foot mark after a number open on the query side only', () => {
    expect(queryTerms("1/2' pvc")).toEqual(['0.5', "0.5'", 'pvc']);
    expect(analyze("8' ladder")).toContain('8ft');
  });

  it('reads a foot mark as inches or feet, whichever the catalogue holds more often', () => {
    const df = vocabulary({ '0.5in': 900, '0.5ft': 3, '16ft': 400, '16in': 120 });
    expect(rewriteTerms(['0.5', "0.5'", 'pvc'], df)).toEqual(['0.5', '0.5in', 'pvc']);
    expect(rewriteTerms(['16', "16'", 'door'], df)).toEqual(['16', '16ft', 'door']);
    expect(rewriteTerms(['7', "7'"], df)).toEqual(['7', '7in']);
  });

  it('joins two words when the catalogue knows the joined word and not one of the parts', () => {
    const df = vocabulary({ dishwasher: 50, dish: 80, washer: 300, door: 900, knob: 40 });
    expect(rewriteTerms(['dish', 'washr'], df)).toEqual(['dish', 'washr']);
    expect(rewriteTerms(['dishwa', 'sher'], vocabulary({ dishwasher: 5 }))).toEqual(['dishwasher']);
    expect(rewriteTerms(['dish', 'washer'], df)).toEqual(['dish', 'washer']);
    expect(rewriteTerms(['door', 'knob'], df)).toEqual(['door', 'knob']);
  });

  it('asks the catalogue for every form the rewrite may use', () => {
    const lookups = vocabularyLookups(['0.5', "0.5'", 'cordl', 'ess', 'drill']);
    expect(lookups).toEqual(
      expect.arrayContaining(['0.5in', '0.5ft', 'cordless', 'essdrill', 'cordl', 'drill']),
    );
  });
});
