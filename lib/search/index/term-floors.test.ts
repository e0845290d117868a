import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPages } from '../../catalog/ingest';
import { queryRows, type Db } from '../../db/client';
import { adminProduct, type FixtureProduct } from '../../testing/fixtures/admin-product';
import { createFixtureStore } from '../../testing/fixtures/catalogue';
import type { TestServer } from '../../testing/server';
import { madeUpWord } from '../../testing/unique';
import { startOwnTestServer } from '../../testing/own-database';
import { planAvoidingScans } from '../../testing/plan';
import { resolveQueryTerms, type QueryTerm } from '../query/query-terms';
import { FLOORS_READ, TERM_POSTINGS_READ } from './term-floors';
import { embedTextsCached } from '../query/cached-embeddings';
import type { Candidate } from '../retrieve/candidate';
import { retrieveCandidates } from '../retrieve/plan';
import { termPostings, WHOLE_TERM_MAX } from '../retrieve/term-postings-cache';
import { textEmbedder } from '../../embeddings/index';
import { resetEnvCache } from '../../config/env';

let t: TestServer;

// A database of its own: 2,850 products of one shape would move the global statistics (N, the
// average length) that other suites' threshold tests score by. On a Citus server that database is
// not distributed (ownDatabase); the Citus form of these statements was checked on a cluster.
beforeAll(async () => {
  t = await startOwnTestServer('floors');
});
afterAll(() => t?.close());

/**
 * Products holding `word` in their title. A description of `filler` words of varying count
 * gives them 40 document lengths, so 40 impacts: ties at the cut, as real catalogues have.
 * One embedding input for all (title only), so the model runs once.
 */
function holding(word: string, count: number, firstId: number, extra = ''): FixtureProduct[] {
  return Array.from({ length: count }, (_, i) => ({
    id: firstId + i,
    title: `${word}${extra}`,
    description: extra ? 'filler '.repeat(i % 40) : undefined,
    images: [],
    variants: [{ id: (firstId + i) * 10, price: '1.00' }],
  }));
}

/** A store synced in pages of 250, as Shopify serves them. */
async function syncStore(db: Db, items: FixtureProduct[], storeId?: string): Promise<string> {
  const id = storeId ?? (await createFixtureStore(db, [])).id;
  const records = items.map(adminProduct);
  const pages = Array.from({ length: Math.ceil(records.length / 250) }, (_, i) =>
    records.slice(i * 250, (i + 1) * 250),
  );
  await ingestPages(db, id, pages, { removeVanished: storeId !== undefined });
  return id;
}

interface TermRow {
  df: number;
  floor: number | null;
  above: number;
}

async function termRow(db: Db, term: string): Promise<TermRow | undefined> {
  const [row] = await queryRows<{ df: number; floor: number | null; above: number }>(
    db,
    sql`SELECT df, floor, above FROM search_terms WHERE term = ${term}`,
  );
  return row && { df: Number(row.df), floor: row.floor, above: Number(row.above) };
}

/** The impact of the term's TERM_POSTINGS_READ-th best posting, and how many reach it. */
async function cut(db: Db, term: string) {
  const [row] = await queryRows<{ impact: number }>(
    db,
    sql`SELECT impact FROM search_postings WHERE term = ${term}
        ORDER BY impact DESC LIMIT 1 OFFSET ${TERM_POSTINGS_READ - 1}`,
  );
  return { impact: row!.impact, reach: await postingsReaching(db, term, row!.impact) };
}

async function postingsReaching(db: Db, term: string, floor: number): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(
    db,
    sql`SELECT count(*) AS n FROM search_postings WHERE term = ${term} AND impact >= ${floor}::real`,
  );
  return Number(row!.n);
}

describe('term floors', () => {
  // Every indexing batch reads the floors: at 10M products a scan of the vocabulary would be
  // millions of rows where the floored terms are thousands.
  it('are read through the index of the floored terms', async () => {
    const plan = await planAvoidingScans(t.database.db, FLOORS_READ);
    expect(plan).toMatch(/Index (Only )?Scan (using|on) search_terms_floored_idx/);
    expect(plan).not.toMatch(/Seq Scan on search_terms/);
  });

  it('keep each common term floor at its best postings through syncs, and searches read from it', async () => {
    const db = t.database.db;
    // Its own word, so that only these products hold it.
    const word = madeUpWord();

    // 2,300 products: more than a search reads, so the term gets a floor once a page takes it
    // past 2,000, and the later pages count the postings that reach it.
    const storeA = await syncStore(db, holding(word, 2300, 7_100_000, ' widget'));
    const first = (await termRow(db, word))!;
    expect(first.df).toBe(2300);
    expect(first.above).toBe(await postingsReaching(db, word, first.floor!));
    expect(first.above).toBeGreaterThanOrEqual(TERM_POSTINGS_READ);
    expect(first.above).toBeLessThanOrEqual(2200);

    // 300 shorter titles, all above the floor: counted, the floor stays (within its band).
    await syncStore(db, holding(word, 300, 7_200_000));
    expect(await termRow(db, word)).toEqual({
      df: 2600,
      floor: first.floor,
      above: first.above + 300,
    });

    // 250 more: past a quarter over the cut, the floor moves up to the 2,000th best again.
    await syncStore(db, holding(word, 250, 7_300_000));
    const third = (await termRow(db, word))!;
    const thirdCut = await cut(db, word);
    expect(third).toEqual({ df: 2850, floor: thirdCut.impact, above: thirdCut.reach });
    expect(third.floor!).toBeGreaterThan(first.floor!);

    // A search reads the term from its floor, and finds the best postings first.
    expect((await resolveQueryTerms(db, word)).terms).toEqual([
      expect.objectContaining({ term: word, floor: third.floor }),
    ]);
    const { key } = await t.newDeveloper();
    const res = await t.call('POST', '/search/products', {
      key,
      body: { query: { text: word }, max_result_count: 5 },
    });
    expect(res.status).toBe(200);
    const titles = (res.body as { results: Array<{ title: string }> }).results.map((r) => r.title);
    expect(titles.map((title) => title.toLowerCase())).toEqual(Array(5).fill(word));

    // Store A loses 1,300 products: 1,550 left, every posting is read, the floor goes.
    await syncStore(db, holding(word, 1000, 7_100_000, ' widget'), storeA);
    expect(await termRow(db, word)).toEqual({ df: 1550, floor: null, above: 0 });
    expect((await resolveQueryTerms(db, word)).terms[0]).not.toHaveProperty('floor');
  }, 240_000);

  it('give an all-stores search from cached postings the candidates and scores of the SQL read', async () => {
    const db = t.database.db;
    const [common, rare] = [madeUpWord(), madeUpWord()];
    // `common` and `gadget` get floors; `rare` does not. The cache holds all the postings of each
    // (the floored terms are held by fewer than WHOLE_TERM_MAX products), and the pick reads only
    // those that reach a floor. A floored term held by more keeps only its best postings there,
    // and the statement reads the candidates' others: `moreCommon` makes these terms count as such.
    await syncStore(db, holding(common, 2050, 7_400_000, ' gadget'));
    await syncStore(db, holding(`${common} ${rare}`, 20, 7_500_000));
    const provider = textEmbedder();
    const moreCommon = (term: QueryTerm): QueryTerm =>
      term.floor === undefined ? term : { ...term, df: WHOLE_TERM_MAX + 1 };
    const retrieve = async (
      text: string,
      cacheMb: number,
      asHeld: (term: QueryTerm) => QueryTerm = (term) => term,
    ): Promise<Candidate[]> => {
      process.env.POSTINGS_CACHE_MB = String(cacheMb);
      resetEnvCache();
      const resolved = await resolveQueryTerms(db, text);
      const lexical = { ...resolved, terms: resolved.terms.map(asHeld) };
      const [vector] = (await embedTextsCached(db, provider, [text])).vectors;
      const found = await retrieveCandidates(db, {
        scope: { excludeStoreIds: [] },
        lexical,
        text: { modelId: provider.modelId, dimensions: provider.dimensions, vector: vector! },
        lexicalCandidates: 100,
        vectorCandidates: 25,
      });
      return found.sort((a, b) => a.productId - b.productId);
    };
    try {
      for (const text of [`${common} ${rare}`, `${rare} gadget ${common}`, `${common} gadget`]) {
        const terms = (await resolveQueryTerms(db, text)).terms;
        const floored = terms.filter((term) => term.floor !== undefined);
        expect(floored.length).toBeGreaterThan(0);
        const fromSql = await retrieve(text, 0);
        expect(await retrieve(text, 64), text).toEqual(fromSql);
        expect(await retrieve(text, 64, moreCommon), `${text}, best postings held`).toEqual(
          fromSql,
        );
        expect(fromSql.length).toBeGreaterThanOrEqual(100);

        // Held whole: every posting, and apart those that reach the floor.
        const lists = (await termPostings(db, floored))!;
        for (const [i, term] of floored.entries()) {
          expect(lists[i]!.complete).toBe(true);
          expect(lists[i]!.productIds.length).toBe(term.df);
          expect(lists[i]!.best!.productIds.length).toBe(
            await postingsReaching(db, term.term, term.floor!),
          );
        }
      }
    } finally {
      delete process.env.POSTINGS_CACHE_MB;
      resetEnvCache();
    }
  }, 240_000);
});
