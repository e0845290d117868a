import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planAvoidingScans } from '../../testing/plan';
import { startTestServer, type TestServer } from '../../testing/server';
import { spellingLookup, TYPO_PLACES, type TypoPlace } from './query-terms';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

// A query with an unknown word looks its typos up in the vocabulary: at 10M products millions of
// terms, so no place may scan them, nor a whole letter's share of them.
describe('spelling lookups', () => {
  // The first place is a range of the primary key; the others share three letters with the word.
  const indexes: Record<TypoPlace, RegExp> = {
    later: /search_terms_pkey/,
    first: /search_terms_(shifted_)?head_idx/,
    second: /search_terms_third_idx/,
  };

  it.each(TYPO_PLACES)(
    'read the vocabulary through an index when the typo is %s',
    async (place) => {
      const plan = await planAvoidingScans(t.database.db, spellingLookup('psintbrush', 2, place));
      expect(plan).toMatch(indexes[place]);
      expect(plan).not.toMatch(/Seq Scan on search_terms/);
    },
  );
});
