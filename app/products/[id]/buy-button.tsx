'use client';

import { useRef, useState } from 'react';
import { describeFailure } from '@/components/code-words';
import { Notice } from '@/components/notice';
import { buyAction } from './actions';

type Phase = 'idle' | 'confirming' | 'buying' | 'done';

const RETRY_SAME_PURCHASE = new Set(['API_TIMEOUT', 'API_UNREACHABLE', 'INTERNAL_ERROR']);

export function BuyButton({
  storeId,
  variantId,
  label,
  disabled,
}: {
  storeId: string;
  variantId: string;
  label: string;
  disabled?: boolean;
}) {
  const [phase, setPhase] = useState<Phase>('idle');
  const [outcome, setOutcome] = useState<{ ok: boolean; words: string }>();
  // One key per confirmed purchase: a double click or a retry replays, never re-orders.
  const key = useRef<string | undefined>(undefined);

  const inFlight = useRef(false);

  async function confirm() {
    // A second click lands before React re-renders the disabled button: refuse it here.
    if (inFlight.current) return;
    inFlight.current = true;
    setPhase('buying');
    key.current ??= crypto.randomUUID();
    const result = await buyAction(storeId, variantId, key.current);
    if (result.ok) {
      setOutcome({
        ok: true,
        words: result.data.orderId
          ? `Order placed: ${result.data.orderId}.`
          : `Order placed. ${result.data.message}`,
      });
      setPhase('done');
    } else {
      setOutcome({
        ok: false,
        words: `${describeFailure(result.code, result.error)} (${result.code})`,
      });
      // After a refusal a new attempt is a new purchase; after a lost answer it is a retry of
      // the same one, and the same key makes sure it cannot order twice.
      if (!RETRY_SAME_PURCHASE.has(result.code)) key.current = undefined;
      setPhase('idle');
    }
    inFlight.current = false;
  }

  return (
    <div className="space-y-2">
      {phase === 'confirming' || phase === 'buying' ? (
        <div
          role="group"
          aria-label={`Confirm buying ${label}`}
          className="flex flex-wrap items-center gap-2"
        >
          <span className="text-sm">Buy 1 × {label}?</span>
          <button
            type="button"
            className="btn btn-primary"
            disabled={phase === 'buying'}
            onClick={() => void confirm()}
          >
            {phase === 'buying' ? 'Buying…' : 'Confirm purchase'}
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={phase === 'buying'}
            onClick={() => setPhase('idle')}
          >
            Cancel
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="btn btn-primary"
          disabled={disabled || phase === 'done'}
          onClick={() => {
            setOutcome(undefined);
            setPhase('confirming');
          }}
        >
          {phase === 'done' ? 'Bought' : 'Buy'}
        </button>
      )}
      {outcome && <Notice tone={outcome.ok ? 'success' : 'error'}>{outcome.words}</Notice>}
    </div>
  );
}
