import { formatMinor } from '@/components/format';

/** Words for UCP's total types, as the checkout and order pages show them. */
const TOTAL_WORDS: Record<string, string> = {
  subtotal: 'Subtotal',
  discount: 'Discount',
  fulfillment: 'Shipping',
  tax: 'Tax',
  total: 'Total',
};

/** Amounts a checkout takes off are shown as such. */
const SUBTRACTED = new Set(['discount']);

type Totals = Array<{ type: string; amount: number }>;

/** The amount (minor units) of one type among UCP totals; 0 when absent. */
export function amountOf(totals: Totals, type = 'total'): number {
  return totals.find((t) => t.type === type)?.amount ?? 0;
}

/**
 * The Totals card of the checkout and of its order: each total in the currency's format, the
 * total in bold; `children` add a line under them.
 */
export function TotalsCard({
  totals,
  currency,
  children,
}: {
  totals: Totals;
  currency: string;
  children?: React.ReactNode;
}) {
  return (
    <section aria-labelledby="totals-heading" className="card space-y-2">
      <h2 id="totals-heading" className="text-lg font-semibold">
        Totals
      </h2>
      <dl className="grid max-w-sm grid-cols-[1fr_auto] gap-x-4 gap-y-1">
        {totals.map((t) => {
          const strong = t.type === 'total' ? 'font-semibold' : '';
          return (
            <div key={t.type} className="contents" data-testid={`total-${t.type}`}>
              <dt className={strong}>{TOTAL_WORDS[t.type] ?? t.type}</dt>
              <dd className={`text-right ${strong}`}>
                {SUBTRACTED.has(t.type) ? '−' : ''}
                {formatMinor(t.amount, currency)}
              </dd>
            </div>
          );
        })}
      </dl>
      {children}
    </section>
  );
}
