import type { SimShop } from './shop';

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );
}

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>${content}</body></html>
`;
}

/**
 * Shopify's cart permalink `/cart/{variant_id}:{quantity}[,...]` as a tiny checkout page that
 * names each variant and echoes the pre-filled `checkout[...]` query fields, so a browser test
 * can check where a checkout link leads.
 */
export function renderCartPage(
  shop: SimShop,
  items: string,
  query: URLSearchParams,
): { status: 200 | 404; body: string } {
  const rows: string[] = [];
  for (const item of items.split(',')) {
    const [variantId = '', quantity = '1'] = item.split(':');
    const variant = shop.catalogue.variants.get(variantId);
    if (!variant || !/^\d+$/.test(quantity)) {
      return {
        status: 404,
        body: page('Not found', `<h1>No variant ${escapeHtml(variantId)} in this shop</h1>`),
      };
    }
    const label =
      variant.title === 'Default Title'
        ? variant.productTitle
        : `${variant.productTitle} - ${variant.title}`;
    rows.push(
      `<li data-variant-id="${escapeHtml(String(variant.id))}" data-quantity="${quantity}">` +
        `${escapeHtml(label)} &times; ${quantity} at ${escapeHtml(variant.price)} ${escapeHtml(shop.currency)}</li>`,
    );
  }
  const prefilled = [...query]
    .filter(([key]) => key.startsWith('checkout['))
    .map(
      ([key, value]) =>
        `<dt>${escapeHtml(key)}</dt><dd data-field="${escapeHtml(key)}">${escapeHtml(value)}</dd>`,
    );
  const content =
    `<h1>Checkout: ${escapeHtml(shop.name)}</h1><ul>${rows.join('')}</ul>` +
    (prefilled.length ? `<h2>Pre-filled</h2><dl>${prefilled.join('')}</dl>` : '');
  return { status: 200, body: page(`Checkout - ${shop.name}`, content) };
}
