'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import Link from 'next/link';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { describeFailure } from '@/components/code-words';
import { Field } from '@/components/field';
import { formatMinor } from '@/components/format';
import { Notice } from '@/components/notice';
import type { UcpCheckout } from '@/lib/api-client';
import type { ActionResult } from '../../../_server/action-result';
import {
  applyCodesAction,
  cancelCheckoutAction,
  chooseShippingAction,
  completeCheckoutAction,
} from '../../actions';
import { PAYMENT_WORDS } from '../../payment';
import { amountOf, TotalsCard } from '../../totals';

const codeSchema = z.object({
  code: z.string().trim().min(1, 'Enter a code').max(100, 'A code is at most 100 characters'),
});

const RETRY_SAME_PAYMENT = new Set(['API_TIMEOUT', 'API_UNREACHABLE', 'INTERNAL_ERROR']);

export function CheckoutPanel({ storeId, initial }: { storeId: string; initial: UcpCheckout }) {
  const [checkout, setCheckout] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  // One key per confirmation: a double click or a retry after a lost answer pays once.
  const key = useRef<string | undefined>(undefined);
  const form = useForm<z.input<typeof codeSchema>, unknown, z.output<typeof codeSchema>>({
    resolver: zodResolver(codeSchema),
    defaultValues: { code: '' },
  });

  const money = (amount: number) => formatMinor(amount, checkout.currency);
  const open = checkout.status !== 'completed' && checkout.status !== 'canceled';

  async function act(
    work: () => Promise<ActionResult<UcpCheckout>>,
  ): Promise<ActionResult<UcpCheckout>> {
    setBusy(true);
    setFailure(undefined);
    const result = await work();
    setBusy(false);
    if (result.ok) setCheckout(result.data);
    else setFailure(`${describeFailure(result.code, result.error)} (${result.code})`);
    return result;
  }

  async function confirm() {
    key.current ??= crypto.randomUUID();
    const confirmKey = key.current;
    const result = await act(() => completeCheckoutAction(storeId, checkout.id, confirmKey));
    // After a lost answer a new click retries the same payment; after an answer it is a new one.
    if (result.ok || !RETRY_SAME_PAYMENT.has(result.code)) key.current = undefined;
  }

  const applied = checkout.discounts?.applied ?? [];
  const base = `/checkout/${encodeURIComponent(storeId)}/${encodeURIComponent(checkout.id)}`;

  return (
    <div className="space-y-6">
      <section aria-labelledby="items-heading" className="card space-y-2">
        <h2 id="items-heading" className="text-lg font-semibold">
          Items
        </h2>
        <ul className="space-y-1" aria-label="Line items">
          {checkout.line_items.map((line) => (
            <li key={line.id} data-testid="line-item" className="flex justify-between gap-4">
              <span>
                {line.quantity} × {line.item.title}
              </span>
              <span>{money(amountOf(line.totals))}</span>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="shipping-heading" className="card space-y-2">
        <h2 id="shipping-heading" className="text-lg font-semibold">
          Shipping
        </h2>
        {(checkout.fulfillment?.methods ?? []).map((method) => {
          const destination = method.destinations?.find(
            (d) => d.id === method.selected_destination_id,
          );
          return (
            <div key={method.id} className="space-y-2">
              {destination && (
                <p className="text-sm text-slate-600">
                  To {[destination.first_name, destination.last_name].filter(Boolean).join(' ')},{' '}
                  {destination.street_address}, {destination.address_locality}{' '}
                  {destination.postal_code}, {destination.address_country}
                </p>
              )}
              {method.groups.map((group) =>
                group.options.length === 0 ? (
                  <p key={group.id}>This store has no shipping option to this address.</p>
                ) : (
                  <fieldset key={group.id} className="space-y-1">
                    <legend className="text-sm font-medium">Shipping option</legend>
                    {group.options.map((option) => (
                      <label key={option.id} className="flex items-center gap-2">
                        <input
                          type="radio"
                          name={`shipping-${group.id}`}
                          value={option.id}
                          checked={group.selected_option_id === option.id}
                          disabled={busy || !open}
                          onChange={() =>
                            void act(() =>
                              chooseShippingAction(storeId, checkout.id, {
                                methodId: method.id,
                                groupId: group.id,
                                optionId: option.id,
                              }),
                            )
                          }
                        />
                        <span>
                          {option.title} · {money(amountOf(option.totals))}
                        </span>
                      </label>
                    ))}
                  </fieldset>
                ),
              )}
            </div>
          );
        })}
        {!checkout.fulfillment && <p>No shipping address was given.</p>}
      </section>

      <section aria-labelledby="discount-heading" className="card space-y-2">
        <h2 id="discount-heading" className="text-lg font-semibold">
          Discounts
        </h2>
        {applied.length > 0 && (
          <ul className="text-sm" aria-label="Applied discounts">
            {applied.map((d) => (
              <li key={d.code}>
                {d.code}: {d.title} (−{money(d.amount)})
              </li>
            ))}
          </ul>
        )}
        {open && (
          <form
            noValidate
            className="flex flex-wrap items-end gap-2"
            onSubmit={(event) =>
              void form.handleSubmit(async ({ code }) => {
                const codes = [...applied.map((d) => d.code), code];
                if ((await act(() => applyCodesAction(storeId, checkout.id, codes))).ok)
                  form.reset();
              })(event)
            }
          >
            <Field
              label="Discount code"
              autoComplete="off"
              error={form.formState.errors.code?.message}
              {...form.register('code')}
            />
            <button type="submit" className="btn btn-secondary" disabled={busy}>
              Apply
            </button>
          </form>
        )}
        {checkout.messages.map((m, i) => (
          <Notice key={i} tone={m.type === 'info' ? 'info' : 'error'}>
            {m.content}
          </Notice>
        ))}
      </section>

      <TotalsCard totals={checkout.totals} currency={checkout.currency}>
        {!checkout.totals.some((t) => t.type === 'fulfillment') && open && (
          <p className="text-sm text-slate-600">Shipping is added once you choose an option.</p>
        )}
      </TotalsCard>

      {failure && <Notice tone="error">{failure}</Notice>}

      {checkout.status === 'completed' && checkout.order ? (
        <Notice tone="success" title="Order placed">
          Order <span className="font-mono">{checkout.order.id}</span> is placed.{' '}
          <Link href={`${base}/order`} className="underline">
            View the order
          </Link>
        </Notice>
      ) : checkout.status === 'canceled' ? (
        <Notice tone="info">
          This checkout is canceled: nothing was bought.{' '}
          <Link href="/search" className="underline">
            Back to the search
          </Link>
        </Notice>
      ) : (
        <div className="space-y-2">
          <p className="text-sm text-slate-600">{PAYMENT_WORDS}</p>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy || checkout.status !== 'ready_for_complete'}
              onClick={() => void confirm()}
            >
              {busy ? 'Working…' : `Confirm and pay ${money(amountOf(checkout.totals))}`}
            </button>
            <button
              type="button"
              className="btn btn-secondary"
              disabled={busy}
              onClick={() => void act(() => cancelCheckoutAction(storeId, checkout.id))}
            >
              Cancel checkout
            </button>
          </div>
          {checkout.status !== 'ready_for_complete' && (
            <p className="text-sm text-slate-600">Choose a shipping option to confirm.</p>
          )}
        </div>
      )}
    </div>
  );
}
