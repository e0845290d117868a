'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { describeFailure } from '@/components/code-words';
import { formatTime } from '@/components/format';
import { Notice } from '@/components/notice';
import type { StoreSummary, SyncProgress } from '@/lib/api-client';
import { getStoreAction, startSyncAction } from '../../actions';

const COUNTERS: Array<[keyof SyncProgress, string]> = [
  ['pages', 'Pages'],
  ['seen', 'Seen'],
  ['added', 'Added'],
  ['changed', 'Changed'],
  ['unchanged', 'Unchanged'],
  ['removed', 'Removed'],
  ['failed', 'Failed'],
  ['embedded', 'Embedded'],
];

async function loadStore(id: string): Promise<StoreSummary> {
  const result = await getStoreAction(id);
  if (!result.ok) throw new Error(describeFailure(result.code, result.error));
  return result.data;
}

/** Starts a sync and polls the store every second while it runs. */
export function SyncPanel({ initial }: { initial: StoreSummary }) {
  const router = useRouter();
  const query = useQuery({
    queryKey: ['store', initial.id],
    queryFn: () => loadStore(initial.id),
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.sync.state === 'running' ? 1000 : false),
  });
  const start = useMutation({
    mutationFn: async () => {
      const result = await startSyncAction(initial.id);
      if (!result.ok) throw new Error(describeFailure(result.code, result.error));
      return result.data;
    },
    onSuccess: () => query.refetch(),
  });
  const store = query.data;
  const { sync } = store;
  const running = sync.state === 'running';
  // When a sync ends, reload the page's server parts: its error list and product count.
  const lastState = useRef(sync.state);
  useEffect(() => {
    if (lastState.current === 'running' && sync.state !== 'running') router.refresh();
    lastState.current = sync.state;
  }, [sync.state, router]);

  return (
    <section aria-labelledby="sync-heading" className="card space-y-3">
      <h2 id="sync-heading" className="text-lg font-semibold">
        Catalogue sync
      </h2>
      <p data-testid="sync-state" aria-live="polite">
        State: <strong>{sync.state}</strong>
        {sync.started_at && ` · started ${formatTime(sync.started_at)}`}
        {sync.finished_at && ` · finished ${formatTime(sync.finished_at)}`}
      </p>
      {running && (
        <progress className="w-full" aria-label="Sync in progress">
          Syncing…
        </progress>
      )}
      {sync.progress && (
        <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4" data-testid="sync-progress">
          {COUNTERS.map(([key, label]) => (
            <div key={key} className="rounded bg-slate-100 p-2">
              <dt className="text-slate-600">{label}</dt>
              <dd className="text-lg font-semibold" data-testid={`sync-${key}`}>
                {sync.progress?.[key] ?? 0}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {sync.last_error && (
        <Notice tone="error" title="The last sync failed">
          {sync.last_error}
        </Notice>
      )}
      <p>Products in search: {store.product_count}</p>
      <button
        type="button"
        className="btn btn-primary"
        disabled={running || start.isPending}
        onClick={() => start.mutate()}
      >
        {running ? 'Syncing…' : 'Start sync'}
      </button>
      {start.isError && <Notice tone="error">{start.error.message}</Notice>}
      {query.isError && <Notice tone="error">{query.error.message}</Notice>}
    </section>
  );
}
