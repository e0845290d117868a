// @no-test-database
import fs from 'node:fs';
import path from 'node:path';
import wabt from 'wabt';
import { describe, expect, it } from 'vitest';
import { DOT_PRODUCTS_WASM, VectorRows } from './dot-products';

/** Deterministic values in [-1, 1). */
function values(seed: number, n: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 31 - 1;
  });
}

describe('SIMD dot products', () => {
  it('are the module compiled from dot-products.wat', async () => {
    const source = fs.readFileSync(path.join(__dirname, 'dot-products.wat'), 'utf8');
    const parsed = (await wabt()).parseWat('dot-products.wat', source, { simd: true });
    const compiled = Buffer.from(parsed.toBinary({}).buffer).toString('base64');
    parsed.destroy();
    expect(DOT_PRODUCTS_WASM, 'paste this text into dot-products.ts').toBe(compiled);
  });

  it("give each row's dot product with the query, whatever the width", () => {
    for (const dimensions of [512, 16, 3, 37]) {
      const rows = new VectorRows(50, dimensions);
      const data = Array.from({ length: 50 }, (_, i) => values(i + 1, dimensions));
      data.forEach((v, i) => rows.row(i).set(v));
      const query = values(99, dimensions);
      const dots = rows.dotsWith(query);
      expect(dots).toHaveLength(50);
      data.forEach((v, i) => {
        // Float32 sums in another order than the reference's doubles.
        const exact = v.reduce((sum, x, j) => sum + Math.fround(x) * Math.fround(query[j]!), 0);
        expect(dots[i]!, `row ${i} of ${dimensions}`).toBeCloseTo(exact, 4);
      });
    }
  });

  it('give NaN for a row of NaN, and refuse a query of another width', () => {
    const rows = new VectorRows(2, 16);
    rows.row(0).fill(NaN);
    rows.row(1).fill(1);
    expect([...rows.dotsWith(new Array(16).fill(2))]).toEqual([NaN, 32]);
    expect(() => rows.dotsWith([1, 2])).toThrow(/2 dimensions/);
  });
});
