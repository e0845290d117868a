import { centsToString } from '../catalog/decimal';
import type { StoreRules } from '../contract/store-rules';

type Json = Record<string, unknown>;

/** A shop's checkout rules as a UCP test-data directory holds them (lib/ucp/rules/read.ts). */
export type ShopRules = Pick<
  StoreRules,
  'shippingRates' | 'discounts' | 'promotions' | 'customers' | 'addresses'
>;

/** The rules as the Admin REST API serves them. */
export interface AdminRules {
  shippingZones: Json[];
  priceRules: Json[];
  /** Each price rule's discount codes, by the rule's id as text. */
  discountCodes: Map<string, Json[]>;
  customers: Json[];
}

const money = (minorUnits: number) => centsToString(BigInt(minorUnits));

/**
 * Shipping rates as Shopify's zones: the `default` rates in the Rest of World zone (country code
 * `*`), each country's own rates in a zone of that country. Every rate is price-based with no
 * order bounds, its id and name the data's.
 */
function shippingZones(rates: NonNullable<ShopRules['shippingRates']>, nextId: () => number) {
  const byCountry = new Map<string, typeof rates>();
  for (const rate of rates) {
    byCountry.set(rate.countryCode, [...(byCountry.get(rate.countryCode) ?? []), rate]);
  }
  return [...byCountry].map(([country, zoneRates]) => {
    const id = nextId();
    const world = country === 'default';
    return {
      id,
      name: world ? 'Rest of World' : country,
      profile_id: 'gid://shopify/DeliveryProfile/1',
      location_group_id: 'gid://shopify/DeliveryLocationGroup/1',
      admin_graphql_api_id: `gid://shopify/DeliveryZone/${id}`,
      countries: [
        {
          id: nextId(),
          name: world ? 'Rest of World' : country,
          tax: 0.0,
          code: world ? '*' : country,
          tax_name: 'Tax',
          shipping_zone_id: id,
          provinces: [],
        },
      ],
      weight_based_shipping_rates: [],
      price_based_shipping_rates: zoneRates.map((rate) => ({
        id: rate.id,
        name: rate.title,
        price: money(rate.price),
        shipping_zone_id: id,
        min_order_subtotal: null,
        max_order_subtotal: null,
      })),
      carrier_shipping_rate_providers: [],
    };
  });
}

/** A price rule with Shopify's fields, none of its conditions set unless `rule` sets them. */
function priceRule(id: string | number, created: string, rule: Json): Json {
  return {
    id,
    value_type: 'percentage',
    value: '0.0',
    customer_selection: 'all',
    target_type: 'line_item',
    target_selection: 'all',
    allocation_method: 'across',
    allocation_limit: null,
    once_per_customer: false,
    usage_limit: null,
    starts_at: created,
    ends_at: null,
    created_at: created,
    updated_at: created,
    entitled_product_ids: [],
    entitled_variant_ids: [],
    entitled_collection_ids: [],
    entitled_country_ids: [],
    prerequisite_product_ids: [],
    prerequisite_variant_ids: [],
    prerequisite_collection_ids: [],
    customer_segment_prerequisite_ids: [],
    prerequisite_customer_ids: [],
    prerequisite_subtotal_range: null,
    prerequisite_quantity_range: null,
    prerequisite_shipping_price_range: null,
    prerequisite_to_entitlement_quantity_ratio: {
      prerequisite_quantity: null,
      entitled_quantity: null,
    },
    prerequisite_to_entitlement_purchase: { prerequisite_amount: null },
    title: '',
    admin_graphql_api_id: `gid://shopify/PriceRule/${id}`,
    ...rule,
  };
}

function customersOf(rules: ShopRules, created: string): Json[] {
  return (rules.customers ?? []).map((customer) => {
    const [first = '', ...rest] = customer.name.split(' ');
    const addresses = (rules.addresses ?? [])
      .filter((a) => a.customerId === customer.id)
      .map((a, i) => ({
        id: a.id,
        customer_id: customer.id,
        first_name: a.firstName ?? first,
        last_name: a.lastName ?? rest.join(' '),
        company: null,
        address1: a.streetAddress,
        address2: a.extendedAddress ?? null,
        city: a.city,
        province: a.region,
        country: a.country,
        zip: a.postalCode,
        phone: null,
        name: customer.name,
        province_code: a.region || null,
        country_code: a.country,
        country_name: a.country,
        default: i === 0,
      }));
    return {
      id: customer.id,
      email: customer.email,
      first_name: first,
      last_name: rest.join(' '),
      state: 'enabled',
      verified_email: true,
      tags: '',
      currency: 'USD',
      created_at: created,
      updated_at: created,
      addresses,
      default_address: addresses[0] ?? null,
    };
  });
}

/**
 * The rules in the Admin API's shapes: each discount code a price rule of its own with that one
 * code, on every line item (percentage or fixed amount across the order) or, free shipping, a
 * 100% shipping-line rule; each free-shipping promotion a 100% shipping-line price rule under
 * the promotion's id, with its order minimum (`prerequisite_subtotal_range`) or its items
 * (`prerequisite_product_ids`) and no code. Shopify applies a price rule only through its codes,
 * so a promotion served so never applies: the REST Admin API has no automatic discounts.
 */
export function adminRules(rules: ShopRules, nextId: () => number, createdAt: Date): AdminRules {
  const created = createdAt.toISOString().replace(/\.\d{3}Z$/, '+00:00');
  const priceRules: Json[] = [];
  const discountCodes = new Map<string, Json[]>();
  for (const discount of rules.discounts ?? []) {
    const id = nextId();
    const title = discount.description || discount.code;
    priceRules.push(
      priceRule(
        id,
        created,
        discount.type === 'free_shipping'
          ? { target_type: 'shipping_line', allocation_method: 'each', value: '-100.0', title }
          : {
              value_type: discount.type,
              value:
                discount.type === 'percentage'
                  ? `-${discount.value}.0`
                  : `-${money(discount.value)}`,
              title,
            },
      ),
    );
    discountCodes.set(String(id), [
      {
        id: nextId(),
        price_rule_id: id,
        code: discount.code,
        usage_count: 0,
        created_at: created,
        updated_at: created,
      },
    ]);
  }
  for (const promotion of rules.promotions ?? []) {
    priceRules.push(
      priceRule(promotion.id, created, {
        target_type: 'shipping_line',
        allocation_method: 'each',
        value: '-100.0',
        prerequisite_subtotal_range:
          promotion.minSubtotal === null
            ? null
            : { greater_than_or_equal_to: money(promotion.minSubtotal) },
        prerequisite_product_ids: promotion.eligibleItemIds,
        title: promotion.description || promotion.id,
      }),
    );
    discountCodes.set(promotion.id, []);
  }
  return {
    shippingZones: shippingZones(rules.shippingRates ?? [], nextId),
    priceRules,
    discountCodes,
    customers: customersOf(rules, created),
  };
}
