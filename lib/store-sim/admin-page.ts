import { onlyFields, pageInfoConflict, requestedFields } from './admin-query';
import { parseLimit } from './catalogue';

type Json = Record<string, unknown>;

export type AdminPage =
  { records: Json[]; next?: string; previous?: string } | { errors: Record<string, string> };

/** A `page_info` token: where the page starts in the list. */
function encode(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

function decode(token: string): number | undefined {
  try {
    const { offset } = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      offset?: unknown;
    };
    return Number.isSafeInteger(offset) && (offset as number) >= 0 ? (offset as number) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A page of an Admin API list (products, price rules, discount codes, customers): `limit` (50
 * by default, at most 250) and `fields`, paged by `page_info` cursors in the `Link` header as
 * Shopify documents (a request with `page_info` may carry only `limit` and `fields` besides).
 */
export function adminPage(records: Json[], query: URLSearchParams): AdminPage {
  const limit = parseLimit(query.get('limit') ?? undefined, 50);
  const fields = requestedFields(query);
  let start = 0;
  const pageInfo = query.get('page_info');
  if (pageInfo !== null) {
    const conflict = pageInfoConflict(query);
    if (conflict) return { errors: conflict };
    const offset = decode(pageInfo);
    if (offset === undefined) return { errors: { page_info: 'Invalid value.' } };
    start = offset;
  }
  const page = records.slice(start, start + limit);
  return {
    records: page.map((p) => onlyFields(p, fields)),
    next: start + limit < records.length ? encode(start + limit) : undefined,
    previous: start > 0 ? encode(Math.max(start - limit, 0)) : undefined,
  };
}
