import { sql, type SQL } from 'drizzle-orm';

/**
 * Rows that travel as one JSON text of arrays, parsed at once: as rows, the drivers decode each
 * field apart in JavaScript (PGlite's even character by character), which took milliseconds of a
 * search for a few hundred rows. float8's JSON form is exact (shortest round trip), so numbers
 * arrive as the database held them. The aggregate over `columns` of `alias`, in that order:
 */
export function packedRows(
  columns: readonly string[],
  { alias, orderBy }: { alias?: string; orderBy?: SQL } = {},
): SQL {
  const fields = columns.map((c) => (alias ? `${alias}.${c}` : c)).join(', ');
  return sql`json_agg(json_build_array(${sql.raw(fields)})${orderBy ? sql` ORDER BY ${orderBy}` : sql``})`;
}

/** packedRows's arrays as they arrived: the text, or the value when the driver parsed the json. */
export function packedArrays<T extends unknown[]>(packed: unknown): T[] {
  if (packed === null || packed === undefined) return [];
  return (typeof packed === 'string' ? JSON.parse(packed) : packed) as T[];
}

/** packedRows's arrays as objects keyed by `columns`. */
export function unpackRows<R>(packed: unknown, columns: readonly string[]): R[] {
  // A plain loop: Object.fromEntries over the columns took five times as long as the parse.
  return packedArrays(packed).map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
    return row as R;
  });
}
