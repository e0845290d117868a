import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteSimpleQuery } from './pglite-internals';

let client: PGlite;

beforeAll(async () => {
  client = await PGlite.create();
  await client.exec('CREATE TABLE probe (n int)');
});
afterAll(() => client?.close());

describe("PGlite's internals that pgliteSimpleQuery relies on", () => {
  it('has its exclusive-run locks, each taking the work to run', () => {
    const member = (name: string) => (client as unknown as Record<string, unknown>)[name];
    for (const name of ['_runExclusiveTransaction', '_runExclusiveQuery']) {
      expect(member(name), name).toBeTypeOf('function');
      expect((member(name) as (work: unknown) => unknown).length, name).toBe(1);
    }
    expect(member('execProtocolStream')).toBeTypeOf('function');
  });

  it('runs one exclusive query at a time, and returns what the work returns', async () => {
    const events: string[] = [];
    const work = (name: string) => async () => {
      events.push(`${name} starts`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      events.push(`${name} ends`);
      return name;
    };
    const answers = await Promise.all([
      client._runExclusiveQuery(work('a')),
      client._runExclusiveQuery(work('b')),
    ]);
    expect(answers).toEqual(['a', 'b']);
    expect(events).toEqual(['a starts', 'a ends', 'b starts', 'b ends']);
  });

  it('keeps a parser per type OID, the array types of the catalogue included', () => {
    const parsers = (
      client as unknown as { parsers: Record<number, (v: string, t: number) => unknown> }
    ).parsers;
    expect(parsers).toBeTypeOf('object');
    expect(parsers[23]!('42', 23)).toBe(42);
    expect(parsers[20]!('9007199254740993', 20)).toBe(9007199254740993n);
    expect(parsers[1009]!('{a,"b,c",NULL}', 1009)).toEqual(['a', 'b,c', null]);
  });
});

describe('pgliteSimpleQuery', () => {
  it('reads every kind of value as PGlite query() does, arrays and NULLs included', async () => {
    const statement = `SELECT 'it''s ✓'::text AS text, 42::int4 AS int4, 9007199254740993::int8 AS big,
        12::int8 AS small, 0.1::float8 AS float8, 'NaN'::float8 AS nan, true AS yes, NULL::text AS nothing,
        '{"a":[1,2.5,"x"]}'::json AS json, '{"b":null}'::jsonb AS jsonb, 12.50::numeric AS numeric,
        '2026-11-27T10:00:00Z'::timestamptz AS at, ARRAY['a','b,c','d"e',NULL] AS texts,
        ARRAY[[1,2],[3,4]] AS grid, '\\x00ff'::bytea AS bytes, 1 AS twice, 2 AS twice`;
    const expected = (await client.query(statement)).rows;
    const rows = await pgliteSimpleQuery<Record<string, unknown>>(client, statement);
    expect(rows).toEqual(expected);
    expect(rows[0]!.texts).toEqual(['a', 'b,c', 'd"e', null]);
    expect(rows[0]!.big).toBe(9007199254740993n);
  });

  it('answers every row, and none for a statement without rows', async () => {
    expect(await pgliteSimpleQuery(client, 'SELECT g AS n FROM generate_series(1, 3) g')).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 3 },
    ]);
    expect(await pgliteSimpleQuery(client, 'SELECT 1 AS n WHERE false')).toEqual([]);
    await client.query('PREPARE probe_count AS SELECT count(*)::int AS n FROM probe');
    expect(await pgliteSimpleQuery(client, 'EXECUTE probe_count')).toEqual([{ n: 0 }]);
  });

  it("fails with the database's error and leaves the session usable", async () => {
    await expect(pgliteSimpleQuery(client, 'SELECT 1 / 0')).rejects.toMatchObject({
      code: '22012',
      message: 'division by zero',
    });
    await expect(pgliteSimpleQuery(client, 'EXECUTE no_such_statement')).rejects.toMatchObject({
      code: '26000',
    });
    expect(await pgliteSimpleQuery(client, 'SELECT 2 AS n')).toEqual([{ n: 2 }]);
  });

  it('waits for a transaction another caller holds open instead of running inside it', async () => {
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const events: string[] = [];
    const transaction = client
      .transaction(async (tx) => {
        await tx.query('INSERT INTO probe VALUES (1)');
        inserted();
        await released;
        events.push('rolled back');
        await tx.rollback();
      })
      .catch(() => undefined);
    await insertedYet;
    const read = pgliteSimpleQuery<{ n: number }>(client, 'SELECT count(*)::int AS n FROM probe');
    const readDone = read.then((rows) => events.push('read') && rows);
    // Long enough for a read that did not wait to have answered from inside the transaction.
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    expect(await readDone).toEqual([{ n: 0 }]);
    expect(events).toEqual(['rolled back', 'read']);
  });
});
