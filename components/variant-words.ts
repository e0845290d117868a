/**
 * Shopify gives a product without options one option "Title" with the value "Default Title",
 * and its one variant the title "Default Title": placeholders, not something to show.
 */
const PLACEHOLDER = 'Default Title';

export function realOptions<T extends { name: string; values: string[] }>(options: T[]): T[] {
  return options.filter((o) => !(o.values.length === 1 && o.values[0] === PLACEHOLDER));
}

/** The variant's own name, or undefined for the placeholder of a product without options. */
export function variantName(title: string): string | undefined {
  return title && title !== PLACEHOLDER ? title : undefined;
}
