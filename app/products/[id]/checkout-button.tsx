'use client';

import { useState } from 'react';
import { describeFailure } from '@/components/code-words';
import { Notice } from '@/components/notice';
import { startCheckoutAction } from '../../checkout/actions';

/**
 * Buy on a store the dashboard can pay at: starts a UCP checkout for one of the variant and
 * opens it (the server action redirects), where the shopper sees the total before confirming.
 */
export function CheckoutButton({
  storeId,
  variantId,
  currency,
  disabled,
}: {
  storeId: string;
  variantId: string;
  currency: string;
  disabled?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  async function start() {
    setBusy(true);
    setFailure(undefined);
    const result = await startCheckoutAction(storeId, variantId, currency);
    // Success leaves the page: only a refusal comes back.
    if (!result.ok) setFailure(`${describeFailure(result.code, result.error)} (${result.code})`);
    setBusy(false);
  }

  return (
    <div className="space-y-2">
      <button
        type="button"
        className="btn btn-primary"
        disabled={disabled || busy}
        onClick={() => void start()}
      >
        {busy ? 'Opening checkout…' : 'Buy'}
      </button>
      {failure && <Notice tone="error">{failure}</Notice>}
    </div>
  );
}
