import { sql, type SQL } from 'drizzle-orm';

/**
 * The operations a formula that runs both here and in the database is written with: the formula
 * is one generic function, and each instance gives it numbers or SQL text. The two sides then
 * perform the same operations in the same order (binary ops parenthesized in SQL), so that they
 * agree to the bit, which the lexical pick and the floor test rely on.
 */
export interface Arithmetic<T, B> {
  constant(x: number): T;
  plus(a: T, b: T): T;
  times(a: T, b: T): T;
  over(a: T, b: T): T;
  atMostOne(a: T): T;
  /** Rounded to a 4-byte float, as a `real` column stores it. */
  float4(a: T): T;
  atLeast(a: T, b: T): B;
}

export const numbers: Arithmetic<number, boolean> = {
  constant: (x) => x,
  plus: (a, b) => a + b,
  times: (a, b) => a * b,
  over: (a, b) => a / b,
  atMostOne: (a) => Math.min(1, a),
  float4: Math.fround,
  atLeast: (a, b) => a >= b,
};

/** Constants are float8 parameters; a `real` column cast to real is left as it is by the parser. */
export const sqlArithmetic: Arithmetic<SQL, SQL> = {
  constant: (x) => sql`${x}::float8`,
  plus: (a, b) => sql`(${a} + ${b})`,
  times: (a, b) => sql`(${a} * ${b})`,
  over: (a, b) => sql`(${a} / ${b})`,
  atMostOne: (a) => sql`least(1, ${a})`,
  float4: (a) => sql`(${a})::real`,
  atLeast: (a, b) => sql`${a} >= ${b}`,
};
