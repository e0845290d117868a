import { sql, type SQL } from 'drizzle-orm';

/** pgvector's text form of a vector, `[0.1,0.2,...]`, as a query parameter or in a text[] of them. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(',')}]`;
}

/** Integers below this are the ones C's strtof reads at once (musl's fast path for float). */
const FAST_INTEGER = 2 ** 24;

/**
 * A vector's direction in pgvector's text form, as integers: the vector scaled by the power of
 * two that brings its largest element just under 2^24, and rounded. pgvector reads a vector's
 * text with strtof, which in PGlite's WebAssembly takes about 2 µs for a decimal fraction and a
 * tenth of that for such an integer (512 floats: 1.2 against 0.1 ms). For cosine comparisons
 * as it is, since cosine does not see the scale; stored, through storedDirection (which gives a
 * unit-length model vector back). The rounding moves each element by at most 2^-25 of the
 * largest, a few float32 steps: a cosine moves in about its seventh decimal.
 */
export function directionText(vector: readonly number[]): string {
  const largest = Math.max(...vector.map(Math.abs));
  const scale = 2 ** Math.floor(Math.log2((FAST_INTEGER - 1) / largest));
  // A zero vector, or one so small that no double can scale it, is written as it is.
  if (!(largest > 0) || !Number.isFinite(largest) || !Number.isFinite(scale)) {
    return vectorLiteral(vector);
  }
  return `[${vector.map((x) => Math.round(x * scale)).join(',')}]`;
}

/** A value in directionText's form (a column or parameter) as the unit vector to store. */
export function storedDirection(text: SQL): SQL {
  return sql`l2_normalize(${text}::vector)`;
}
