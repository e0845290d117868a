import { DrizzleQueryError } from 'drizzle-orm';

/** What a database driver (pg, PGlite) says about a failed statement, without the values. */
interface DatabaseErrorLike {
  code: string;
  severity?: string;
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
}

function databaseError(err: unknown): DatabaseErrorLike | undefined {
  const candidate = err as Partial<DatabaseErrorLike> | undefined;
  return typeof candidate?.code === 'string' &&
    /^[0-9A-Z]{5}$/.test(candidate.code) &&
    typeof candidate.severity === 'string'
    ? (candidate as DatabaseErrorLike)
    : undefined;
}

/** The statement's kind and first table (`insert "styles"`), never its text or parameters. */
function statementKind(query: string): string {
  const verb = /^\s*(\w+)/.exec(query)?.[1]?.toLowerCase();
  const table = /\b(?:from|into|update)\s+("[\w.]+"|\w+)/i.exec(query)?.[1];
  return [verb, table].filter(Boolean).join(' ');
}

const EMAIL = /[^\s@"'<>]+@[^\s@"'<>]+\.[^\s@"'<>]+/g;
const LONG_NUMBER = /\+?\d[\d ().-]{6,}\d/g;

/**
 * An error as a log line may hold it: its class and codes. A database error keeps its SQLSTATE,
 * constraint, table and column, and drops the SQL text, its parameters and the server's message
 * and detail, which quote the values (addresses, e-mails, phone numbers). Other errors keep a
 * short message with e-mail addresses and long numbers masked.
 */
export function errorFields(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err };
  const query = err instanceof DrizzleQueryError ? err.query : undefined;
  const db = databaseError(err) ?? databaseError(err.cause);
  if (query !== undefined || db) {
    return {
      type: query !== undefined ? 'DrizzleQueryError' : err.name,
      ...(query !== undefined ? { statement: statementKind(query) } : {}),
      ...(db
        ? {
            sqlstate: db.code,
            constraint: db.constraint,
            table: db.table,
            column: db.column,
            routine: db.routine,
          }
        : {}),
    };
  }
  return {
    type: err.name,
    message: err.message.replace(EMAIL, '[email]').replace(LONG_NUMBER, '[number]').slice(0, 300),
  };
}
