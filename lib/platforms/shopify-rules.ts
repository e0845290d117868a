import type { KyInstance } from 'ky';
import { toCents, toPriceString } from '../catalog/decimal';
import { platformSettings } from './settings';
import { readClient, readEveryPage, readFailure } from './shopify-http';
import type { PlatformRules, StoreConnection } from './types';

/**
 * A store's checkout rules through the Admin REST API: shipping rates from `shipping_zones.json`,
 * discount codes (percentage, fixed amount, free shipping) from `price_rules.json` with each
 * rule's `price_rules/{id}/discount_codes.json`, customers and their addresses from `customers.json`
 * (lists read page by page by their cursor links). What a checkout here cannot honour is left
 * out and named in `skipped`, never approximated. Each resource is read on its own: one that
 * fails (a token without the `read_customers` scope) leaves its part out and the others in.
 */

/** One resource's rules as they are read, before the read is known to have succeeded. */
type Draft = Required<Omit<PlatformRules, 'failed'>>;

type Id = number | string;
type Money = string | number;

interface AdminRate {
  id?: Id;
  name?: string;
  price?: Money;
  min_order_subtotal?: Money | null;
  max_order_subtotal?: Money | null;
  weight_low?: Money | null;
  weight_high?: Money | null;
}

interface AdminZone {
  countries?: { code?: string }[];
  price_based_shipping_rates?: AdminRate[];
  weight_based_shipping_rates?: AdminRate[];
}

interface AdminPriceRule {
  id?: Id;
  title?: string;
  value_type?: string;
  value?: Money;
  target_type?: string;
  target_selection?: string;
  allocation_method?: string;
  customer_selection?: string;
  once_per_customer?: boolean;
  usage_limit?: number | null;
  starts_at?: string | null;
  ends_at?: string | null;
  entitled_product_ids?: Id[];
  entitled_variant_ids?: Id[];
  entitled_collection_ids?: Id[];
  entitled_country_ids?: Id[];
  prerequisite_product_ids?: Id[];
  prerequisite_variant_ids?: Id[];
  prerequisite_collection_ids?: Id[];
  prerequisite_customer_ids?: Id[];
  customer_segment_prerequisite_ids?: Id[];
  prerequisite_subtotal_range?: { greater_than_or_equal_to?: Money | null } | null;
  prerequisite_quantity_range?: { greater_than_or_equal_to?: number | null } | null;
  prerequisite_shipping_price_range?: { less_than_or_equal_to?: Money | null } | null;
  prerequisite_to_entitlement_quantity_ratio?: {
    prerequisite_quantity?: number | null;
    entitled_quantity?: number | null;
  } | null;
}

interface AdminAddress {
  id?: Id;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  province_code?: string | null;
  zip?: string | null;
  country_code?: string | null;
  first_name?: string | null;
  last_name?: string | null;
}

interface AdminCustomer {
  id?: Id;
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  addresses?: AdminAddress[];
}

/** Shopify's money strings ("5.00", and a rule's negative "-10.0") in minor units. */
function minorUnits(value: Money): number {
  return Number(toCents(toPriceString(String(value).replace(/^-/, ''))));
}

const positive = (value: Money | null | undefined) =>
  value !== null && value !== undefined && Number(value) > 0;

const EXPRESS = /\b(express|priority|overnight|expedited|next[- ]day)\b/i;

/**
 * Shopify's rates have names, not service levels. Within a zone, cheapest first, the first rate
 * whose name says express (priority, overnight, expedited, next day) is the `express` level and
 * the first other one `standard`, so that a country's rate replaces the Rest of World rate of
 * its level and a free-shipping promotion frees the cheapest; every further rate is a level of
 * its own (its name, or its name and id when a rate took that already), so it is still offered.
 */
function zoneRates(zone: AdminZone, skipped: string[]): Draft['shippingRates'] {
  const rates = [
    ...(zone.price_based_shipping_rates ?? []).map((rate) => {
      const bounded = positive(rate.min_order_subtotal) || rate.max_order_subtotal != null;
      return { rate, condition: bounded ? 'order subtotals' : undefined };
    }),
    ...(zone.weight_based_shipping_rates ?? []).map((rate) => {
      const bounded = positive(rate.weight_low) || rate.weight_high != null;
      return { rate, condition: bounded ? 'order weights' : undefined };
    }),
  ];
  const offered = rates.filter(({ rate, condition }) => {
    if (condition)
      skipped.push(`shipping rate ${rate.id} (${rate.name}): only for some ${condition}`);
    return !condition && rate.id !== undefined && rate.price !== undefined;
  });
  const levels = new Set<string>();
  const priced = offered
    .map(({ rate }) => ({ rate, price: minorUnits(rate.price!) }))
    .sort((a, b) => a.price - b.price);
  const countries = (zone.countries ?? []).flatMap((c) =>
    c.code ? [c.code === '*' ? 'default' : c.code.toUpperCase()] : [],
  );
  return priced.flatMap(({ rate, price }) => {
    const title = rate.name ?? '';
    const wanted = EXPRESS.test(title) ? 'express' : 'standard';
    let level = levels.has(wanted) ? title.trim().toLowerCase() : wanted;
    if (levels.has(level)) level = `${level} ${rate.id}`;
    levels.add(level);
    return countries.map((countryCode) => ({
      id: String(rate.id),
      countryCode,
      serviceLevel: level,
      price,
      title,
    }));
  });
}

const some = (ids: unknown[] | undefined) => (ids?.length ?? 0) > 0;

/** Why a checkout here could not honour the rule as Shopify would, if it could not. */
function unsupported(rule: AdminPriceRule, now: Date): string | undefined {
  if (rule.starts_at && new Date(rule.starts_at) > now) return 'not started';
  if (rule.ends_at && new Date(rule.ends_at) <= now) return 'ended';
  if (rule.customer_selection !== 'all' || some(rule.prerequisite_customer_ids))
    return 'only for some customers';
  if (some(rule.customer_segment_prerequisite_ids)) return 'only for a customer segment';
  if (rule.once_per_customer || rule.usage_limit != null) return 'limited in uses';
  if (some(rule.prerequisite_collection_ids)) return 'needs items of a collection';
  if (rule.prerequisite_quantity_range?.greater_than_or_equal_to != null)
    return 'needs a quantity of items';
  const ratio = rule.prerequisite_to_entitlement_quantity_ratio;
  if (ratio?.prerequisite_quantity != null || ratio?.entitled_quantity != null)
    return 'buy X get Y';
  return undefined;
}

type Classified =
  | { kind: 'code'; type: 'percentage' | 'fixed_amount' | 'free_shipping'; value: number }
  | { kind: 'skip'; reason: string };

/**
 * A line-item rule on every item is a discount code (percentage or fixed amount off the
 * subtotal); a 100% shipping-line rule for every country is a free-shipping code. Shopify
 * applies a price rule only through its discount codes, so neither is ever automatic; our
 * codes have no conditions, so a rule needing an order minimum or some items is skipped.
 */
function classify(rule: AdminPriceRule, now: Date): Classified {
  const reason = unsupported(rule, now);
  if (reason) return { kind: 'skip', reason };
  const value = Number(rule.value);
  if (rule.target_type === 'line_item') {
    if (rule.target_selection !== 'all' || some(rule.entitled_collection_ids))
      return { kind: 'skip', reason: 'only for some items' };
    if (positive(rule.prerequisite_subtotal_range?.greater_than_or_equal_to))
      return { kind: 'skip', reason: 'needs an order minimum' };
    if (some(rule.prerequisite_product_ids) || some(rule.prerequisite_variant_ids))
      return { kind: 'skip', reason: 'needs some items' };
    if (rule.value_type === 'percentage') {
      if (!Number.isInteger(value) || value > 0 || value < -100)
        return { kind: 'skip', reason: `a percentage of ${-value}` };
      return { kind: 'code', type: 'percentage', value: -value };
    }
    if (rule.value_type === 'fixed_amount') {
      // 'each' takes the amount off every entitled item; a code here takes it off the order.
      if (rule.allocation_method !== 'across')
        return { kind: 'skip', reason: 'an amount off each item' };
      return { kind: 'code', type: 'fixed_amount', value: minorUnits(rule.value!) };
    }
    return { kind: 'skip', reason: `value type ${rule.value_type}` };
  }
  if (rule.target_type === 'shipping_line') {
    if (rule.value_type !== 'percentage' || value !== -100)
      return { kind: 'skip', reason: 'a partial shipping discount' };
    if (rule.target_selection !== 'all' || some(rule.entitled_country_ids))
      return { kind: 'skip', reason: 'only for some countries' };
    if (positive(rule.prerequisite_shipping_price_range?.less_than_or_equal_to))
      return { kind: 'skip', reason: 'only for shipping rates up to a price' };
    if (positive(rule.prerequisite_subtotal_range?.greater_than_or_equal_to))
      return { kind: 'skip', reason: 'needs an order minimum' };
    if (
      some(rule.prerequisite_product_ids) ||
      some(rule.prerequisite_variant_ids) ||
      some(rule.entitled_product_ids) ||
      some(rule.entitled_variant_ids)
    )
      return { kind: 'skip', reason: 'needs some items' };
    return { kind: 'code', type: 'free_shipping', value: 0 };
  }
  return { kind: 'skip', reason: `target type ${rule.target_type}` };
}

async function readPriceRules(api: KyInstance, rules: Draft, now: Date): Promise<void> {
  const priceRules: AdminPriceRule[] = [];
  await readEveryPage(api, 'price_rules.json', new URLSearchParams({ limit: '250' }), (body) => {
    priceRules.push(...((body as { price_rules?: AdminPriceRule[] }).price_rules ?? []));
  });
  const codes = new Set<string>();
  for (const rule of priceRules) {
    if (rule.id === undefined) continue;
    const what = classify(rule, now);
    const name = `price rule ${rule.id} (${rule.title ?? ''})`;
    if (what.kind === 'skip') {
      rules.skipped.push(`${name}: ${what.reason}`);
    } else {
      const path = `price_rules/${encodeURIComponent(String(rule.id))}/discount_codes.json`;
      await readEveryPage(api, path, new URLSearchParams({ limit: '250' }), (body) => {
        for (const { code } of (body as { discount_codes?: { code?: string }[] }).discount_codes ??
          []) {
          if (!code || codes.has(code)) continue;
          codes.add(code);
          rules.discounts.push({
            code,
            type: what.type,
            value: what.value,
            description: rule.title ?? '',
          });
        }
      });
    }
  }
}

function readCustomer(customer: AdminCustomer, rules: Draft): void {
  if (customer.id === undefined) return;
  if (!customer.email) {
    rules.skipped.push(`customer ${customer.id}: no e-mail (a checkout knows buyers by e-mail)`);
    return;
  }
  const customerId = String(customer.id);
  const name = [customer.first_name, customer.last_name].filter(Boolean).join(' ');
  rules.customers.push({ id: customerId, name, email: customer.email });
  for (const address of customer.addresses ?? []) {
    if (address.id === undefined) continue;
    rules.addresses.push({
      id: String(address.id),
      customerId,
      streetAddress: address.address1 ?? '',
      extendedAddress: address.address2 || null,
      city: address.city ?? '',
      region: address.province_code ?? '',
      postalCode: address.zip ?? '',
      country: (address.country_code ?? '').toUpperCase(),
      firstName: address.first_name || null,
      lastName: address.last_name || null,
    });
  }
}

export async function readRules(connection: StoreConnection): Promise<PlatformRules> {
  const settings = platformSettings();
  const api = readClient(connection, settings);
  const page = new URLSearchParams({ limit: '250' });
  const reads: [string, (draft: Draft) => Promise<void>, (keyof Draft)[]][] = [
    [
      'shipping_zones.json',
      async (draft) => {
        const body = await api.get('shipping_zones.json').json<{ shipping_zones?: AdminZone[] }>();
        for (const zone of body.shipping_zones ?? []) {
          draft.shippingRates.push(...zoneRates(zone, draft.skipped));
        }
      },
      ['shippingRates'],
    ],
    [
      'price_rules.json',
      (draft) => readPriceRules(api, draft, new Date()),
      // No price rule is automatic (each applies only through its codes): promotions are read
      // as none, which clears those an earlier sync wrote from free-shipping price rules.
      ['discounts', 'promotions'],
    ],
    [
      'customers.json',
      (draft) =>
        readEveryPage(api, 'customers.json', page, (body) => {
          for (const customer of (body as { customers?: AdminCustomer[] }).customers ?? []) {
            readCustomer(customer, draft);
          }
        }),
      ['customers', 'addresses'],
    ],
  ];
  const rules: PlatformRules = { skipped: [], failed: [] };
  for (const [resource, read, parts] of reads) {
    const draft: Draft = {
      shippingRates: [],
      discounts: [],
      promotions: [],
      customers: [],
      addresses: [],
      skipped: [],
    };
    try {
      await read(draft);
    } catch (error) {
      rules.failed.push(`${resource}: ${await readFailure(error, settings)}`);
      continue;
    }
    Object.assign(rules, Object.fromEntries(parts.map((part) => [part, draft[part]])));
    rules.skipped.push(...draft.skipped);
  }
  return rules;
}
