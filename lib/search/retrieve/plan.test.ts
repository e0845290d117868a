// @no-test-database
import { afterEach, describe, expect, it } from 'vitest';
import { setEnv } from '../../testing/env';
import type { QueryTerm } from '../query/query-terms';
import { choosePlan } from './plan';
import type { RetrievalRequest } from './request';

const term = (t: Partial<QueryTerm> = {}): QueryTerm => ({
  term: 'lamp',
  weight: 2,
  version: 7,
  ...t,
});

const request = (r: Partial<RetrievalRequest> = {}): RetrievalRequest => ({
  scope: { excludeStoreIds: [] },
  lexical: { terms: [term()], idfTotal: 2, avgdl: 3 },
  lexicalCandidates: 100,
  vectorCandidates: 15,
  ...r,
});

afterEach(() => setEnv({ POSTINGS_CACHE_MB: undefined }));

describe('choosePlan', () => {
  it('searches a named store in one statement on every engine', () => {
    for (const engine of ['embedded', 'postgres', 'citus'] as const) {
      expect(choosePlan(request({ scope: { storeId: 's', storeDocs: 10 } }), engine)).toBe(
        'oneStore',
      );
    }
  });

  it('takes all-stores lexical candidates from the postings cache, on Citus in two steps', () => {
    setEnv({ POSTINGS_CACHE_MB: '16' });
    expect(choosePlan(request(), 'embedded')).toBe('allStoresCached');
    expect(choosePlan(request(), 'postgres')).toBe('allStoresCached');
    expect(choosePlan(request(), 'citus')).toBe('citusTwoStep');
  });

  it('reads all stores in SQL when the cache cannot serve the search', () => {
    setEnv({ POSTINGS_CACHE_MB: '16' });
    const cases: Array<[string, RetrievalRequest]> = [
      ['price filter', request({ priceMax: 50 })],
      ['excluded variants', request({ excludeVariantIds: ['v1'] })],
      ['vector only', request({ lexical: undefined, lexicalCandidates: 0 })],
      ['no known term', request({ lexical: { terms: [], idfTotal: 3, avgdl: 3 } })],
      [
        'a term without a version',
        request({ lexical: { terms: [term({ version: undefined })], idfTotal: 2, avgdl: 3 } }),
      ],
    ];
    for (const [name, req] of cases) {
      for (const engine of ['embedded', 'citus'] as const) {
        expect(choosePlan(req, engine), `${name} on ${engine}`).toBe('allStoresSql');
      }
    }
    setEnv({ POSTINGS_CACHE_MB: '0' });
    expect(choosePlan(request(), 'citus')).toBe('allStoresSql');
  });
});
