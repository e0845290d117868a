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

afterEach(() =>
  setEnv({
    POSTINGS_CACHE_MB: undefined,
    STORE_VECTORS_CACHE_MB: undefined,
    STORE_VECTORS_LOAD_AFTER: undefined,
  }),
);

describe('choosePlan', () => {
  it('searches a named store from the caches where they serve it, on every engine', () => {
    const store = (storeDocs: number) => ({ storeId: 's', storeDocs, vectorsVersion: 1 });
    const text = { modelId: 'm', dimensions: 2, vector: [1, 0] };
    const common = { terms: [term({ floor: 2, df: 30_000 })], idfTotal: 2, avgdl: 3 };
    const cases: Array<[string, RetrievalRequest, string]> = [
      ['words and a vector', request({ scope: store(5_000), text }), 'oneStoreCached'],
      ['words of a large store', request({ scope: store(50_000) }), 'oneStoreCached'],
      [
        'a vector alone',
        request({ scope: store(5_000), text, lexical: undefined }),
        'oneStoreCached',
      ],
      [
        'a small store, a vector alone',
        request({ scope: store(10), text, lexical: undefined }),
        'oneStore',
      ],
      ['a common word', request({ scope: store(10), lexical: common }), 'oneStore'],
      [
        'a common word, a vector',
        request({ scope: store(5_000), lexical: common, text }),
        'oneStoreCached',
      ],
      [
        'a large store, a common word',
        request({ scope: store(50_000), lexical: common, text }),
        'oneStore',
      ],
      ['a price filter', request({ scope: store(5_000), text, priceMax: 50 }), 'oneStore'],
      ['an unindexed store', request({ scope: store(0), text, lexical: undefined }), 'oneStore'],
    ];
    // Each store's vectors load at its first search (one-store-cached.test.ts counts searches).
    setEnv({
      POSTINGS_CACHE_MB: '16',
      STORE_VECTORS_CACHE_MB: '16',
      STORE_VECTORS_LOAD_AFTER: '0',
    });
    for (const [name, req, plan] of cases) {
      for (const engine of ['embedded', 'postgres', 'citus'] as const) {
        expect(choosePlan(req, engine), `${name} on ${engine}`).toBe(plan);
      }
    }
    setEnv({ POSTINGS_CACHE_MB: '0', STORE_VECTORS_CACHE_MB: '0' });
    expect(choosePlan(cases[0]![1], 'postgres')).toBe('oneStore');
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
