import { protocol, type PGlite, type types } from '@electric-sql/pglite';

/*
 * The one module that reaches past PGlite's public API (0.4): its exclusive-run locks
 * (`_runExclusiveTransaction`, `_runExclusiveQuery`, declared but internal) and its table of type
 * parsers (`parsers`, undeclared). ./pglite-internals.test.ts fails when an upgrade changes them.
 */

type RowDescription = InstanceType<typeof protocol.messages.RowDescriptionMessage>;
type DataRow = InstanceType<typeof protocol.messages.DataRowMessage>;

/**
 * The parser of each type PGlite reads results with: its scalar types' and one per array type of
 * the catalogue, which it registers when it opens (a field its declarations leave out).
 */
function parsersOf(client: PGlite): Record<number, types.Parser> {
  return (client as unknown as { parsers: Record<number, types.Parser> }).parsers;
}

/**
 * One statement through PGlite's simple query protocol, its rows parsed here as PGlite's query()
 * parses them (same parsers, same row objects). PGlite's query() and exec() copy that whole table
 * of parsers for every result they parse, and query() makes six exchanges with the database (parse,
 * describe, bind, describe, execute, sync) where one does: a trivial statement took 0.29 ms by
 * exec() and 0.36 by query() against 0.05 ms this way, and an all-stores search runs five. The
 * statement waits for the locks query() takes, so that it never runs inside a transaction another
 * caller holds open, and fails with the database's error (its SQLSTATE in `code`) as query() does.
 * execProtocolStream, as query() uses, rather than execProtocol: that one also hands the raw reply
 * to the last raw-stream listener, which PGlite's socket server leaves set, so a client of the
 * socket (the CLI) would receive this statement's rows.
 */
export async function pgliteSimpleQuery<T>(client: PGlite, text: string): Promise<T[]> {
  const messages = await client._runExclusiveTransaction(() =>
    client._runExclusiveQuery(() => client.execProtocolStream(protocol.serialize.query(text))),
  );
  const parsers = parsersOf(client);
  const rows: T[] = [];
  let fields: Array<{ name: string; type: number; parse: types.Parser | undefined }> = [];
  for (const message of messages) {
    if (message.name === 'rowDescription') {
      fields = (message as RowDescription).fields.map((f) => ({
        name: f.name,
        type: f.dataTypeID,
        parse: parsers[f.dataTypeID],
      }));
    } else if (message.name === 'dataRow') {
      const values = (message as DataRow).fields;
      const row: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) {
        const { name, type, parse } = fields[i]!;
        const value = values[i] ?? null;
        row[name] = value === null || !parse ? value : parse(value, type);
      }
      rows.push(row as T);
    }
  }
  return rows;
}
