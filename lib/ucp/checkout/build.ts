import type { Db } from '../../db/client';
import { newId } from '../../db/ids';
import type { StoreRow } from '../../stores/access';
import { checkoutUcpBlock } from '../capabilities';
import { UcpError } from '../errors';
import { withoutCredential } from '../payment/redact';
import type { UcpSettings } from '../settings';
import { checkStock, findItems } from './catalogue';
import { fulfillmentChosen, mergeMethods, priceMethods } from './fulfillment';
import type { CreateCheckoutRequest, UpdateCheckoutRequest } from './requests';
import { discountRules } from './store-rules';
import {
  applyDiscounts,
  checkoutTotals,
  lineTotals,
  subtotalOf,
  type DiscountRule,
} from './totals';
import type { AppliedDiscount, Checkout, LineItem, Message } from './types';

interface BuildInput {
  db: Db;
  store: StoreRow;
  settings: UcpSettings;
  id: string;
  expiresAt: Date;
  /** The checkout before this request; none on create. */
  previous?: Checkout;
  request: CreateCheckoutRequest | UpdateCheckoutRequest;
}

function currencyOf(store: StoreRow, requested: string | undefined, previous?: Checkout): string {
  const currency = requested ?? previous?.currency ?? store.currency ?? 'USD';
  if (store.currency && currency !== store.currency) {
    throw new UcpError(
      400,
      'CURRENCY_NOT_SUPPORTED',
      `This store sells in ${store.currency}, not ${currency}`,
    );
  }
  return currency;
}

/** The line items, priced and titled from the catalogue and checked against its stock. */
async function priceLines(
  db: Db,
  storeId: string,
  requested: { id?: string; item: { id: string }; quantity: number; parent_id?: string }[],
): Promise<LineItem[]> {
  const items = await findItems(
    db,
    storeId,
    requested.map((l) => l.item.id),
  );
  const wanted = new Map<string, number>();
  const seen = new Set<string>();
  return requested.map((line) => {
    const item = items.get(line.item.id);
    if (!item) {
      throw new UcpError(
        400,
        'ITEM_NOT_FOUND',
        `Product ${line.item.id} not found`,
        'requires_buyer_input',
      );
    }
    const quantity = (wanted.get(item.variantId) ?? 0) + line.quantity;
    wanted.set(item.variantId, quantity);
    checkStock(item, quantity);
    const id = line.id ?? newId('line');
    if (seen.has(id)) throw new UcpError(400, 'INVALID_REQUEST', `Line item id ${id} is repeated`);
    seen.add(id);
    return {
      id,
      item: {
        id: line.item.id,
        title: item.title,
        price: item.price,
        ...(item.imageUrl ? { image_url: item.imageUrl } : {}),
      },
      quantity: line.quantity,
      totals: lineTotals(item.price, line.quantity),
      ...(line.parent_id ? { parent_id: line.parent_id } : {}),
    };
  });
}

/**
 * A warning for each code that is not applied (UCP's discount extension, Rejected Codes):
 * - a code the store does not have: `discount_code_invalid`;
 * - another spelling of a code asked before it (codes match case-insensitively):
 *   `discount_code_already_applied`;
 * - a code the codes applied before it left nothing to take off (a second free-shipping code, or
 *   any code once the subtotal is gone): `discount_code_combination_disallowed`; one that takes
 *   nothing off by itself (a percentage of a few cents): `discount_code_invalid`.
 * A free-shipping code with no shipping price to take off, before an option is chosen or with a
 * free one, stays in `codes` without an applied entry, unwarned: the shipping is free either way.
 */
function discountWarnings(
  codes: string[],
  rules: DiscountRule[],
  applied: AppliedDiscount[],
  shippingCost: number | null,
): Message[] {
  const folded = (code: string) => code.toLowerCase();
  const ruleOf = new Map(rules.map((r) => [folded(r.code), r]));
  const appliedCodes = new Set(applied.map((d) => d.code));
  const warning = (i: number, code: string, content: string): Message[] => [
    { type: 'warning', code, path: `$.discounts.codes[${i}]`, content },
  ];
  return codes.flatMap((code, i) => {
    const rule = ruleOf.get(folded(code));
    if (!rule) {
      return warning(
        i,
        'discount_code_invalid',
        `Discount code ${code} is not valid for this checkout`,
      );
    }
    if (rule.code !== code) {
      return warning(
        i,
        'discount_code_already_applied',
        `Discount code ${code} is ${rule.code}, already asked for`,
      );
    }
    if (appliedCodes.has(code)) return [];
    if (rule.type === 'free_shipping' && !shippingCost) return [];
    const before = applied.filter((d) => codes.indexOf(d.code) < i).map((d) => d.code);
    return before.length > 0
      ? warning(
          i,
          'discount_code_combination_disallowed',
          `Discount code ${code} takes nothing off after ${before.join(', ')}`,
        )
      : warning(
          i,
          'discount_code_invalid',
          `Discount code ${code} takes nothing off this checkout`,
        );
  });
}

/**
 * The checkout after a create or update request: what the request omits (buyer, line items,
 * destinations, selections, codes) is kept from before; prices, titles, stock, shipping
 * options and totals are the store's, whatever the client sent. Ready for completion once
 * every fulfillment method has its destination and option.
 */
export async function buildCheckout(input: BuildInput): Promise<Checkout> {
  const { db, store, previous, request } = input;
  const currency = currencyOf(store, request.currency, previous);
  const lines = request.line_items
    ? await priceLines(db, store.id, request.line_items)
    : await priceLines(db, store.id, previous?.line_items ?? []);
  const buyer = request.buyer ?? previous?.buyer;
  const ctx = {
    db,
    storeId: store.id,
    buyerEmail: buyer?.email?.trim() || undefined,
    lineItemIds: lines.map((l) => l.id),
  };
  const methods = await mergeMethods(
    ctx,
    request.fulfillment?.methods,
    previous?.fulfillment?.methods ?? [],
  );
  const subtotal = subtotalOf(lines);
  const shippingCost = await priceMethods(ctx, methods, lines, subtotal);
  const codes = [...new Set(request.discounts?.codes ?? previous?.discounts?.codes ?? [])];
  const rules = await discountRules(db, store.id, codes);
  const applied = applyDiscounts(subtotal, rules, shippingCost);
  const instruments = request.payment?.instruments ?? previous?.payment.instruments ?? [];
  const selectedInstrument =
    request.payment?.selected_instrument_id ?? previous?.payment.selected_instrument_id;
  return {
    ucp: checkoutUcpBlock(),
    id: input.id,
    status: fulfillmentChosen(methods) ? 'ready_for_complete' : 'incomplete',
    currency,
    line_items: lines,
    ...(buyer ? { buyer } : {}),
    totals: checkoutTotals(subtotal, applied, shippingCost),
    messages: discountWarnings(codes, rules, applied, shippingCost),
    links: [],
    expires_at: input.expiresAt.toISOString(),
    payment: {
      handlers: input.settings.paymentHandlers,
      ...(selectedInstrument ? { selected_instrument_id: selectedInstrument } : {}),
      instruments: instruments.map(
        (i) =>
          withoutCredential(
            i as Record<string, unknown>,
          ) as Checkout['payment']['instruments'][number],
      ),
    },
    ...(methods.length ? { fulfillment: { methods } } : {}),
    ...(codes.length ? { discounts: { codes, applied } } : {}),
  };
}
