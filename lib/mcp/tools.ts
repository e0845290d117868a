import { ApiRequestError, type ApiClient } from '../api-client';
import { answer } from './results';
import { defineTool, type ShoppingTool } from './tool';
import {
  buyInput,
  buyOutput,
  checkoutLinkInput,
  checkoutLinkOutput,
  createProfileOutput,
  getOrderInput,
  getOrderOutput,
  getProductInput,
  getProductOutput,
  getProfileInput,
  getProfileOutput,
  listOrdersInput,
  listOrdersOutput,
  searchProductsInput,
  searchProductsOutput,
  setShippingAddressInput,
  setShippingAddressOutput,
  setStyleInput,
  setStyleOutput,
} from './schemas';
import {
  checkoutSummary,
  orderSummary,
  ordersSummary,
  productLine,
  profileSummary,
  searchSummary,
  shippingSummary,
  styleSummary,
} from './summaries';

const READ = { readOnlyHint: true, openWorldHint: false } as const;
const REPLACE = { readOnlyHint: false, destructiveHint: true, idempotentHint: true } as const;

/**
 * The shopping tools. Each one is a call (or two) to the HTTP API through `api`, so keys, plans,
 * rate limits, tenancy and error codes are the API's own; the transports differ only in how
 * `api` reaches it (in process for /api/mcp, over HTTP for stdio).
 */
export function shoppingTools(api: ApiClient): ShoppingTool[] {
  return [
    defineTool({
      name: 'search_products',
      title: 'Search products',
      description:
        "Search the stores' products by text, optionally with an inspiration image (query.image_url: pro plan and above) " +
        "and personalized by a shopper's style (profile_id). Use it to find products to show or buy. Each variant carries " +
        'its id, price, availability and checkout_url, and with a profile_id whose profile has a shipping address also ' +
        'checkout_url_with_shipping. store_id or store_domain limits the search to one store; without them every store ' +
        'open to you is searched. max_result_count defaults to 2.',
      input: searchProductsInput,
      output: searchProductsOutput,
      annotations: READ,
      run: (args) =>
        answer(
          () => api.searchProducts(args),
          (r) => searchSummary(r.results),
        ),
    }),

    defineTool({
      name: 'get_product',
      title: 'Read a product',
      description:
        'Read one product with every variant, its price, availability and checkout_url, by the product id that ' +
        'search_products returned. Use it to show details or to check price and availability again before buy. ' +
        'With profile_id, variants also carry checkout_url_with_shipping when the profile has an address.',
      input: getProductInput,
      output: getProductOutput,
      annotations: READ,
      run: ({ product_id, ...query }) =>
        answer(
          () => api.getProduct(product_id, query),
          (r) => productLine(r.product),
        ),
    }),

    defineTool({
      name: 'checkout_link',
      title: 'Checkout link for the shopper',
      description:
        "Get the link where the shopper pays for one variant (quantity 1) at the store's own checkout, with the " +
        "profile's shipping address pre-filled. It spends nothing: use it when the shopper should pay themselves, " +
        'and buy when you are to place the order. product_id and variant_id come from search_products or get_product.',
      input: checkoutLinkInput,
      output: checkoutLinkOutput,
      annotations: READ,
      run: ({ product_id, variant_id, ...query }) =>
        answer(async () => {
          const { product } = await api.getProduct(product_id, query);
          const variant = product.variants.find((v) => String(v.id) === variant_id);
          if (!variant) {
            throw new ApiRequestError(
              'INVALID_REQUEST',
              `Variant ${variant_id} is not one of product ${product_id}'s (${product.variants.map((v) => v.id).join(', ')})`,
              400,
            );
          }
          return {
            product_id: product.id,
            product_title: product.title,
            store_domain: product.store_domain,
            variant,
            checkout_url: variant.checkout_url_with_shipping ?? variant.checkout_url,
            shipping_prefilled: variant.checkout_url_with_shipping !== undefined,
          };
        }, checkoutSummary),
    }),

    defineTool({
      name: 'create_profile',
      title: 'Create a shopper profile',
      description:
        'Create a profile for a shopper (id prof_...). Do it once per shopper and keep the id: set_style, ' +
        'set_shipping_address, personalized search, checkout_link and buy all take it.',
      output: createProfileOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
      run: () =>
        answer(
          () => api.createProfile(),
          (r) => `Created ${profileSummary(r.profile)}`,
        ),
    }),

    defineTool({
      name: 'get_profile',
      title: 'Read a shopper profile',
      description:
        "Read a profile with its style and shipping address. Use it to see what is already set, e.g. before buy (which ships to the profile's address).",
      input: getProfileInput,
      output: getProfileOutput,
      annotations: READ,
      run: ({ profile_id }) =>
        answer(
          () => api.getProfile(profile_id),
          (r) => profileSummary(r.profile),
        ),
    }),

    defineTool({
      name: 'set_style',
      title: "Set the shopper's style",
      description:
        "Set what the shopper likes, in words (colours, materials, fit, what to avoid): creates the profile's style or " +
        'replaces its text. Searches with this profile_id are then ranked partly by it (style_weight).',
      input: setStyleInput,
      output: setStyleOutput,
      annotations: REPLACE,
      run: ({ profile_id, text }) =>
        answer(
          async () => {
            const { profile } = await api.getProfile(profile_id);
            const existing = profile.styles[0];
            const { code, style } = existing
              ? await api.updateStyle(existing.id, text)
              : await api.createStyle(profile_id, text);
            return { code, style };
          },
          (r) => styleSummary(r.code, r.style),
        ),
    }),

    defineTool({
      name: 'set_shipping_address',
      title: "Set the shopper's shipping address",
      description:
        "Set where the shopper's orders go: creates the profile's shipping address or replaces it whole (send every " +
        'field). It is checked against the country (province, postal code, phone). buy ships to it and checkout links pre-fill it.',
      input: setShippingAddressInput,
      output: setShippingAddressOutput,
      annotations: REPLACE,
      run: ({ profile_id, shipping_address }) =>
        answer(
          async () => {
            const { profile } = await api.getProfile(profile_id);
            const { code, shipping } = profile.shipping
              ? await api.updateShipping(profile.shipping.id, shipping_address)
              : await api.createShipping(profile_id, shipping_address);
            return { code, shipping };
          },
          (r) => shippingSummary(r.code, r.shipping),
        ),
    }),

    defineTool({
      name: 'buy',
      title: 'Buy (spends the shopper’s money)',
      description:
        "Place an order at a store on the shopper's behalf. This spends the shopper's money: call it only after the " +
        'shopper has confirmed the items, quantities and prices. It ships to the profile (user_id) shipping address; ' +
        'payment is left pending at the store. idempotency_key is required: make a new one for each purchase the ' +
        'shopper confirms and send the same one on every retry of that purchase, which then returns the same order ' +
        'instead of buying twice. Returns the order id and status. Refused with STORE_NOT_VERIFIED while the store is ' +
        'not verified for purchases.',
      input: buyInput,
      output: buyOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: true,
      },
      run: ({ idempotency_key, ...order }) =>
        answer(
          async () => {
            const placed = await api.buy(order, idempotency_key);
            const { order: recorded } = await api.getOrder(placed.order_id);
            return { ...placed, status: recorded.status, order: recorded };
          },
          (r) => orderSummary(r.order),
        ),
    }),

    defineTool({
      name: 'get_order',
      title: 'Read an order',
      description:
        'Read one of your orders: status (pending, created at the store, or failed with the reason), lines, prices, total and shipping address.',
      input: getOrderInput,
      output: getOrderOutput,
      annotations: READ,
      run: ({ order_id }) =>
        answer(
          () => api.getOrder(order_id),
          (r) => orderSummary(r.order),
        ),
    }),

    defineTool({
      name: 'list_orders',
      title: 'List orders',
      description:
        "List your orders, newest first: every shopper's, or one profile's with user_id; at most limit (default 50).",
      input: listOrdersInput,
      output: listOrdersOutput,
      annotations: READ,
      run: ({ user_id, limit }) =>
        answer(
          () => api.listOrders(user_id, limit),
          (r) => ordersSummary(r.orders),
        ),
    }),
  ];
}
