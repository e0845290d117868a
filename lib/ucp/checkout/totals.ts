import type { AppliedDiscount, LineItem, Total } from './types';

/**
 * A discount code of the store (percentage: a whole percent; fixed_amount: minor units;
 * free_shipping: the chosen shipping's price, its value unused).
 */
export interface DiscountRule {
  code: string;
  type: 'percentage' | 'fixed_amount' | 'free_shipping';
  value: number;
  description: string;
}

/** Where an applied discount lands: the checkout's subtotal, or its fulfillment total. */
export const SUBTOTAL_PATH = "$.totals[?(@.type=='subtotal')]";
export const FULFILLMENT_PATH = "$.totals[?(@.type=='fulfillment')]";

export function lineTotals(price: number, quantity: number): Total[] {
  const amount = price * quantity;
  return [
    { type: 'subtotal', amount },
    { type: 'total', amount },
  ];
}

export function subtotalOf(lines: LineItem[]): number {
  return lines.reduce((sum, line) => sum + line.item.price * line.quantity, 0);
}

/**
 * The codes applied one after another to what is left of the subtotal, each truncated to a
 * whole minor unit (10% then 20% of 3500: 350, then 630 of 3150), never below zero. A
 * free-shipping code takes off the shipping chosen (`fulfillment`, null while no option is);
 * with none chosen, or nothing left to take off, it applies nothing yet.
 */
export function applyDiscounts(
  subtotal: number,
  rules: DiscountRule[],
  fulfillment: number | null,
): AppliedDiscount[] {
  let left = subtotal;
  let shippingLeft = fulfillment ?? 0;
  const applied: AppliedDiscount[] = [];
  for (const rule of rules) {
    const shipping = rule.type === 'free_shipping';
    const wanted = rule.type === 'percentage' ? Math.floor((left * rule.value) / 100) : rule.value;
    const amount = shipping ? shippingLeft : Math.min(wanted, left);
    if (amount <= 0) continue;
    if (shipping) shippingLeft -= amount;
    else left -= amount;
    applied.push({
      code: rule.code,
      title: rule.description || rule.code,
      amount,
      allocations: [{ path: shipping ? FULFILLMENT_PATH : SUBTOTAL_PATH, amount }],
    });
  }
  return applied;
}

/**
 * The checkout's totals: subtotal, then discount and fulfillment only when they apply (no
 * shipping line before an option is chosen; tax is not computed here), then the total. The
 * discount holds every applied code, a free-shipping code's too: the fulfillment total stays
 * the option's price and the total drops by the discount.
 */
export function checkoutTotals(
  subtotal: number,
  discounts: AppliedDiscount[],
  fulfillment: number | null,
): Total[] {
  const discount = discounts.reduce((sum, d) => sum + d.amount, 0);
  const totals: Total[] = [{ type: 'subtotal', amount: subtotal }];
  if (discount > 0) totals.push({ type: 'discount', amount: discount });
  if (fulfillment !== null) totals.push({ type: 'fulfillment', amount: fulfillment });
  totals.push({ type: 'total', amount: subtotal - discount + (fulfillment ?? 0) });
  return totals;
}
