'use client';

import { useState, useTransition } from 'react';
import { formatTime } from '@/components/format';
import type { StoreSummary } from '@/lib/api-client';
import { useActionOutcome } from '../../../_client/action-outcome';
import type { ActionResult } from '../../../_server/action-result';
import { setPolicyAction, setTokenAction, verifyAction } from '../../actions';

/** A store setting's action, pending while it runs (its buttons disabled). */
function useStoreAction() {
  const [pending, start] = useTransition();
  const { run: runAction, notice } = useActionOutcome();
  const run = (
    work: () => Promise<ActionResult<StoreSummary>>,
    success: (s: StoreSummary) => string,
  ) =>
    start(async () => {
      await runAction(work, success);
    });
  return { pending, notice, run };
}

function verificationWords(s: StoreSummary): string {
  return s.verified
    ? `Verified${s.verified_at ? ` at ${formatTime(s.verified_at)}` : ''}.`
    : `Not verified${s.verification_reason ? `: ${s.verification_reason}` : '.'}`;
}

export function TokenPanel({ store }: { store: StoreSummary }) {
  const [token, setToken] = useState('');
  const { pending, notice, run } = useStoreAction();
  return (
    <section aria-labelledby="token-heading" className="card space-y-3">
      <h2 id="token-heading" className="text-lg font-semibold">
        Admin token and verification
      </h2>
      <p data-testid="verification">
        {store.has_admin_token ? 'An Admin token is attached. ' : 'No Admin token attached. '}
        {verificationWords(store)}
      </p>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          run(
            () => setTokenAction(store.id, token),
            (s) => `Token saved. ${verificationWords(s)}`,
          );
          setToken('');
        }}
      >
        <div className="min-w-60 flex-1">
          <label htmlFor="admin-token" className="block text-sm font-medium">
            {store.has_admin_token ? 'Rotate Admin API token' : 'Attach Admin API token'}
          </label>
          <input
            id="admin-token"
            type="password"
            autoComplete="off"
            className="input mt-1"
            value={token}
            onChange={(e) => setToken(e.target.value)}
          />
        </div>
        <button type="submit" className="btn btn-primary" disabled={pending || !token.trim()}>
          Save token
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={pending || !store.has_admin_token}
          onClick={() => run(() => verifyAction(store.id), verificationWords)}
        >
          Verify now
        </button>
      </form>
      {notice}
    </section>
  );
}

export function PolicyPanel({ store }: { store: StoreSummary }) {
  const [policy, setPolicy] = useState(store.access_policy);
  const [ids, setIds] = useState(store.allowed_developer_ids.join('\n'));
  const { pending, notice, run } = useStoreAction();
  return (
    <section aria-labelledby="policy-heading" className="card space-y-3">
      <h2 id="policy-heading" className="text-lg font-semibold">
        Access policy
      </h2>
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          const developerIds = ids.split(/[\s,]+/).filter(Boolean);
          run(
            () => setPolicyAction(store.id, policy, developerIds),
            (s) =>
              s.access_policy === 'open'
                ? 'Open to every developer.'
                : `Open to ${s.allowed_developer_ids.length} listed developer(s).`,
          );
        }}
      >
        <fieldset className="space-y-1">
          <legend className="text-sm font-medium">Who may search and buy in this store</legend>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="policy"
              value="open"
              checked={policy === 'open'}
              onChange={() => setPolicy('open')}
            />
            Every developer
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="policy"
              value="allow"
              checked={policy === 'allow'}
              onChange={() => setPolicy('allow')}
            />
            Only the developers listed below
          </label>
        </fieldset>
        {policy === 'allow' && (
          <div>
            <label htmlFor="developer-ids" className="block text-sm font-medium">
              Developer ids, one a line
            </label>
            <textarea
              id="developer-ids"
              rows={3}
              className="input mt-1 font-mono"
              value={ids}
              onChange={(e) => setIds(e.target.value)}
            />
          </div>
        )}
        <button type="submit" className="btn btn-primary" disabled={pending}>
          Save policy
        </button>
      </form>
      {notice}
    </section>
  );
}
