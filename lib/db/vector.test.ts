import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textArray } from '../sql/arrays';
import { startTestServer, type TestServer } from '../testing/server';
import { queryRows } from './client';
import { directionText, storedDirection, vectorLiteral } from './vector';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

/** Deterministic pseudo-random unit vectors, shaped like a text model's (elements of about 0.04). */
function unitVectors(count: number, dimensions: number): number[][] {
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31 - 0.5;
  };
  return Array.from({ length: count }, () => {
    const v = Array.from({ length: dimensions }, next);
    const norm = Math.hypot(...v);
    return v.map((x) => Math.fround(x / norm));
  });
}

describe('directionText', () => {
  it('writes a power-of-two multiple of the vector as integers below 2^24', () => {
    const [v] = unitVectors(1, 512);
    const values = JSON.parse(directionText(v!)) as number[];
    expect(values.every(Number.isInteger)).toBe(true);
    const largest = Math.max(...values.map(Math.abs));
    expect(largest).toBeLessThan(2 ** 24);
    expect(largest).toBeGreaterThanOrEqual(2 ** 23);
    const scale = values[0]! / v![0]!;
    expect(Math.log2(scale) % 1).toBeCloseTo(0, 4);
  });

  it('leaves a zero vector, or one too small to scale, as it is', () => {
    expect(directionText([0, 0, 0])).toBe(vectorLiteral([0, 0, 0]));
    expect(directionText([5e-324, 0])).toBe(vectorLiteral([5e-324, 0]));
  });

  it('gives the database the cosines of the vector itself, to the sixth decimal', async () => {
    const vectors = unitVectors(40, 512);
    const rows = await queryRows<{ exact: number; fast: number }>(
      t.database.db,
      sql`SELECT a.v::vector <=> b.v::vector AS exact, a.q::vector <=> b.v::vector AS fast
          FROM unnest(${textArray(vectors.slice(0, 20).map(vectorLiteral))},
                      ${textArray(vectors.slice(0, 20).map(directionText))}) AS a(v, q)
          CROSS JOIN unnest(${textArray(vectors.slice(20).map(vectorLiteral))}) AS b(v)`,
    );
    expect(rows).toHaveLength(400);
    for (const r of rows) expect(Math.abs(Number(r.fast) - Number(r.exact))).toBeLessThan(1e-6);
  });

  it('gives a unit vector back through storedDirection, within float32 steps', async () => {
    const vectors = unitVectors(20, 512);
    const rows = await queryRows<{ back: string }>(
      t.database.db,
      sql`SELECT ${storedDirection(sql.raw('u.v'))}::text AS back
          FROM unnest(${textArray(vectors.map(directionText))}) WITH ORDINALITY AS u(v, i)
          ORDER BY i`,
    );
    rows.forEach((r, i) => {
      const back = JSON.parse(r.back) as number[];
      const largestMove = Math.max(...back.map((x, j) => Math.abs(x - vectors[i]![j]!)));
      expect(largestMove).toBeLessThan(1e-7);
    });
  });
});
