import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ingestPages } from '../../catalog/ingest';
import { queryRows } from '../../db/client';
import { setEnv } from '../../testing/env';
import { closedStoreIds } from '../../stores/access';
import { adminProduct, titledProduct } from '../../testing/fixtures/admin-product';
import { createFixtureStore } from '../../testing/fixtures/catalogue';
import { startTestServer, type TestServer } from '../../testing/server';
import { resolveQueryTerms } from '../query/query-terms';
import type { Candidate } from './candidate';
import { retrieveCandidates } from './plan';
import { clearTermPostingsCache, termPostings } from './term-postings-cache';

/**
 * An all-stores search takes its lexical candidates from cached postings (term-postings-cache.ts,
 * cached-lexical-candidates.ts) where it can: the same candidates as the SQL read, on every engine
 * the suite runs on, and never a posting the index has since changed. Made-up words keep other
 * suites' rows in a shared database out; the stores are open to this run's developer alone.
 */
let t: TestServer;
let dev: { id: string; key: string };
const stores: Array<{ id: string; productIds: number[] }> = [];

// The same titles in several stores tie exactly: the cut at a few candidates is then decided
// by store id and product id, as the SQL read orders them.
const catalogue = (base: number) => [
  titledProduct(base + 1, 'Gramble Tessivar Plonk'),
  titledProduct(base + 2, 'Gramble Tessivar'),
  titledProduct(base + 3, 'Gramble Drusk Plonk Plonk'),
  titledProduct(base + 4, 'Tessivar Drusk'),
  titledProduct(base + 5, 'Gramble'),
];

function cacheBoundOf(mb: number) {
  setEnv({ POSTINGS_CACHE_MB: String(mb) });
  clearTermPostingsCache();
}

beforeAll(async () => {
  t = await startTestServer();
  dev = await t.newDeveloper('free');
  for (const base of [7100, 7200, 7300]) {
    stores.push(
      await createFixtureStore(t.database.db, catalogue(base), {
        accessPolicy: 'allow',
        allowedDevelopers: [dev.id],
      }),
    );
  }
  // A store this developer may not search: its products must never be candidates.
  stores.push(await createFixtureStore(t.database.db, catalogue(7400), { accessPolicy: 'allow' }));
});
afterEach(() => {
  setEnv({ POSTINGS_CACHE_MB: undefined });
  clearTermPostingsCache();
});
afterAll(() => t?.close());

async function lexicalCandidates(text: string, count: number): Promise<Candidate[]> {
  const db = t.database.db;
  const found = await retrieveCandidates(db, {
    scope: { excludeStoreIds: await closedStoreIds(db, dev.id) },
    lexical: await resolveQueryTerms(db, text),
    lexicalCandidates: count,
    vectorCandidates: 0,
  });
  return found.sort((a, b) => a.productId - b.productId);
}

describe('cached postings for all-stores searches', () => {
  it('picks the candidates the SQL read picks, ties and closed stores included', async () => {
    // How many products of the three open stores hold a word of each query.
    const matching: Record<string, number> = {
      'gramble tessivar plonk': 15,
      'plonk drusk': 9,
      gramble: 12,
      'tessivr gramble': 15,
    };
    for (const count of [1, 4, 7, 100]) {
      for (const text of Object.keys(matching)) {
        cacheBoundOf(0);
        const fromSql = await lexicalCandidates(text, count);
        cacheBoundOf(64);
        const fromCache = await lexicalCandidates(text, count);
        expect(fromCache, `${text} (${count})`).toEqual(fromSql);
        expect(fromCache.length).toBe(Math.min(count, matching[text]!));
        expect(fromCache.some((c) => c.storeId === stores[3]!.id)).toBe(false);
      }
    }
  });

  it('reads a term once, and again once its postings change', async () => {
    cacheBoundOf(64);
    const db = t.database.db;
    const before = await resolveQueryTerms(db, 'drusk');
    const [first] = (await termPostings(db, before.terms))!;
    const [again] = (await termPostings(db, before.terms))!;
    expect(again).toBe(first);

    // The same product indexed again with the word twice: the same number of products hold it,
    // but its impact is another, and the term's version with it.
    const target = stores[0]!;
    await ingestPages(
      db,
      target.id,
      (function* () {
        yield [adminProduct(titledProduct(7104, 'Tessivar Drusk Drusk'))];
      })(),
      { removeVanished: false },
    );
    const after = await resolveQueryTerms(db, 'drusk');
    expect(after.terms[0]!.version).not.toBe(before.terms[0]!.version);
    const [fresh] = (await termPostings(db, after.terms))!;
    expect(fresh).not.toBe(first);
    const impactOf = (list: typeof first, id: number) =>
      list!.impacts[list!.productIds.indexOf(id)];
    expect(impactOf(fresh, target.productIds[3]!)).toBeGreaterThan(
      impactOf(first, target.productIds[3]!)!,
    );

    // A new store's product holding the word is a candidate of the next search.
    const added = await createFixtureStore(db, [titledProduct(7501, 'Velquist Drusk')], {
      accessPolicy: 'allow',
      allowedDevelopers: [dev.id],
    });
    expect((await lexicalCandidates('drusk', 100)).map((c) => c.productId)).toContain(
      added.productIds[0],
    );
  });

  it('answers over HTTP as the SQL read does', async () => {
    const search = async (text: string) => {
      const res = await t.call('POST', '/search/products', {
        key: dev.key,
        body: { query: { text }, max_result_count: 20 },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    for (const text of ['gramble plonk', 'drusk tessivar gramble']) {
      cacheBoundOf(0);
      const fromSql = await search(text);
      cacheBoundOf(64);
      expect(await search(text)).toEqual(fromSql);
    }
  });

  it('reads the postings in SQL when the cache is off', async () => {
    cacheBoundOf(0);
    const db = t.database.db;
    expect(await termPostings(db, (await resolveQueryTerms(db, 'gramble')).terms)).toBeUndefined();
  });

  it('reads a whole term from the term index alone: it carries tf and doc_len', async () => {
    // Through the table, each posting of a common term was a page read of its own (migration 0026).
    const [index] = await queryRows<{ indexdef: string }>(
      t.database.db,
      sql`SELECT indexdef FROM pg_indexes WHERE indexname = 'search_postings_term_impact_idx'`,
    );
    expect(index?.indexdef).toMatch(
      /\(term, impact DESC NULLS LAST, store_id, product_id\) INCLUDE \(tf, doc_len\)$/,
    );
  });
});
