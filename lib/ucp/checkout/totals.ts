import type { AppliedDiscount, LineItem, Total } from './types';

/** A discount code of the store (percentage: a whole percent; fixed_amount: minor units). */
export interface DiscountRule {
  code: string;
  type: 'percentage' | 'fixed_amount';
  value: number;
  description: string;
}

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
 * whole minor unit (10% then 20% of 3500: 350, then 630 of 3150), never below zero.
 */
export function applyDiscounts(subtotal: number, rules: DiscountRule[]): AppliedDiscount[] {
  let left = subtotal;
  const applied: AppliedDiscount[] = [];
  for (const rule of rules) {
    const wanted = rule.type === 'percentage' ? Math.floor((left * rule.value) / 100) : rule.value;
    const amount = Math.min(wanted, left);
    if (amount <= 0) continue;
    left -= amount;
    applied.push({
      code: rule.code,
      title: rule.description || rule.code,
      amount,
      allocations: [{ path: "$.totals[?(@.type=='subtotal')]", amount }],
    });
  }
  return applied;
}

/**
 * The checkout's totals: subtotal, then discount and fulfillment only when they apply (no
 * shipping line before an option is chosen; tax is not computed here), then the total.
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
