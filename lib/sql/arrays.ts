import { sql, type SQL } from 'drizzle-orm';

/**
 * One bound parameter holding a whole array, as a Postgres array literal. drizzle expands a JS
 * array into a parameter list, and the two drivers (PGlite, pg) serialize arrays differently;
 * a literal string behaves the same on both.
 */
function arrayLiteral(values: readonly (string | number)[]): SQL {
  const items = values.map((v) =>
    typeof v === 'number' ? String(v) : `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
  );
  return sql`${`{${items.join(',')}}`}`;
}

export function textArray(values: readonly string[]): SQL {
  return sql`${arrayLiteral(values)}::text[]`;
}

export function bigintArray(values: readonly number[]): SQL {
  return sql`${arrayLiteral(values.map((v) => Math.trunc(v)))}::bigint[]`;
}

export function floatArray(values: readonly number[]): SQL {
  return sql`${arrayLiteral(values.map((v) => (Number.isFinite(v) ? v : 0)))}::float8[]`;
}
