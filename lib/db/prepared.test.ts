import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server';
import { openDatabase, queryRows } from './client';
import { queryPrepared } from './prepared';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

// Values a search's parameters may hold, and some a literal must not let out of its quotes.
const awkward = [
  "it's",
  'back\\slash \\x27',
  "x'); DROP TABLE stores; --",
  '$1 $$ dollar',
  'ünïcödé ✓',
  '',
];

describe('queryPrepared', () => {
  it('answers as the unprepared statement does, run after run, for every kind of value', async () => {
    const db = t.database.db;
    const statement = (text: string, n: number) => sql`
      SELECT ${text}::text AS text, ${n}::float8 AS n, ${n > 0}::boolean AS positive,
             ${null}::text AS nothing, length(${text}::text) AS chars`;
    for (const [i, text] of awkward.entries()) {
      const n = [0.1, -2.5e-7, 2 ** 48, 42][i % 4]!;
      const expected = await queryRows(db, statement(text, n));
      for (let run = 0; run < 3; run++) {
        expect(await queryPrepared(db, statement(text, n))).toEqual(expected);
      }
      expect((expected[0] as { text: string }).text).toBe(text);
    }
    const [stores] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM pg_class WHERE relname = 'stores'`,
    );
    expect(stores!.n).toBe(1);
  });

  it('runs as a statement prepared on its connection', async () => {
    // The statement finds itself among the connection's prepared statements; run unprepared,
    // as an unnamed statement, it is not listed there.
    const marker = `prepared-marker-${Date.now()}`;
    const selfListed = sql`SELECT count(*)::int AS n FROM pg_prepared_statements
      WHERE statement LIKE ${`%${marker}%`} AND statement LIKE '%' || ${'listed'} || '%'
      /* ${sql.raw(marker)} listed */`;
    expect(await queryRows<{ n: number }>(t.database.db, selfListed)).toEqual([{ n: 0 }]);
    for (let run = 0; run < 2; run++) {
      expect(await queryPrepared<{ n: number }>(t.database.db, selfListed)).toEqual([{ n: 1 }]);
    }
  });

  it('runs unprepared inside a transaction', async () => {
    const rows = await t.database.db.transaction((tx) =>
      queryPrepared<{ n: number }>(
        tx,
        sql`SELECT count(*)::int AS n FROM pg_prepared_statements
            WHERE statement LIKE ${'%in-transaction-marker%'} /* in-transaction-marker */`,
      ),
    );
    expect(rows).toEqual([{ n: 0 }]);
  });

  // PGlite's socket lets a second process (the CLI) into the server's one session, so a name
  // the server prepared is already there for that client, and the other way round.
  it.skipIf(process.env.TEST_DATABASE_URL !== undefined)(
    'shares a session with a client over the PGlite socket, whichever prepared first',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'prepared-test-'));
      const statement = (n: number) => sql`SELECT ${n}::int * 2 AS twice /* shared */`;
      const other = (n: number) => sql`SELECT ${n}::int * 3 AS thrice /* shared */`;
      const holder = await openDatabase({ dataDir, shareOverSocket: true });
      try {
        const joined = await openDatabase({ dataDir, joinRunningServer: true });
        try {
          expect(await queryPrepared(holder.db, statement(1))).toEqual([{ twice: 2 }]);
          expect(await queryPrepared(joined.db, statement(2))).toEqual([{ twice: 4 }]);
          expect(await queryPrepared(joined.db, other(1))).toEqual([{ thrice: 3 }]);
          expect(await queryPrepared(holder.db, other(2))).toEqual([{ thrice: 6 }]);
          // A reset session loses what the server prepared: it prepares the statement again.
          await queryRows(joined.db, sql`DEALLOCATE ALL`);
          expect(await queryPrepared(holder.db, statement(3))).toEqual([{ twice: 6 }]);
        } finally {
          await joined.close();
        }
        expect(await queryPrepared(holder.db, other(3))).toEqual([{ thrice: 9 }]);
        expect(await queryPrepared(holder.db, statement(4))).toEqual([{ twice: 8 }]);
      } finally {
        await holder.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
