/** Query parameters every paged Admin API list (orders, products) reads the same way. */

/** Parameters a request with `page_info` may carry besides it (Shopify answers 400 to any other). */
const PAGE_INFO_PARAMS = new Set(['page_info', 'limit', 'fields']);

/** The `fields` parameter's names, or undefined when every field is wanted. */
export function requestedFields(query: URLSearchParams): string[] | undefined {
  return query
    .get('fields')
    ?.split(',')
    .map((f) => f.trim())
    .filter(Boolean);
}

export function onlyFields<T extends Record<string, unknown>>(
  record: T,
  fields: string[] | undefined,
): Record<string, unknown> {
  return fields
    ? Object.fromEntries(fields.filter((f) => f in record).map((f) => [f, record[f]]))
    : record;
}

/** Shopify's 400 for a filter sent beside `page_info`, which keeps the first request's filters. */
export function pageInfoConflict(query: URLSearchParams): Record<string, string> | undefined {
  const extra = [...query.keys()].find((name) => !PAGE_INFO_PARAMS.has(name));
  return extra ? { [extra]: `${extra} cannot be passed when page_info is present` } : undefined;
}
