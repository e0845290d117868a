'use client';

import { useEffect, useEffectEvent, useState } from 'react';
import { Notice } from '@/components/notice';
import type { Phase } from '@/lib/server/lifecycle';

/** How often a page waiting for the service asks whether it is ready (its Retry-After). */
const POLL_MS = 2_000;

/**
 * What `/api/ready` says (lib/http/app.ts): ready (200), one of the lifecycle's other phases (503),
 * or no answer at all.
 */
type Readiness = Phase | 'unreachable';

async function readiness(): Promise<Readiness> {
  try {
    const res = await fetch('/api/ready', {
      cache: 'no-store',
      signal: AbortSignal.timeout(5_000),
    });
    if (res.ok) return 'ready';
    const { phase } = (await res.json()) as { phase?: Phase };
    // Ready in phase but not in fact: its database does not answer.
    return phase && phase !== 'ready' ? phase : 'failed';
  } catch {
    return 'unreachable';
  }
}

/**
 * Any page that fails to render says so plainly, with a way to try again. A page that failed
 * because the service is still starting (its database opening, its demo data loading: API
 * requests answer 503 STARTING meanwhile) or is stopping says that instead, and loads by itself
 * once the service is ready. Which it was is asked of `/api/ready`: in production the server's
 * error reaches the browser without its message.
 */
export default function PageError({ retry }: { error: unknown; retry: () => void }) {
  const [state, setState] = useState<'checking' | 'starting' | 'stopping' | 'failed'>('checking');
  const loadPage = useEffectEvent(retry);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let waiting: 'starting' | 'stopping' | undefined;
    const check = async () => {
      const now = await readiness();
      if (stopped) return;
      if (now === 'ready' && waiting) return loadPage();
      if (now === 'starting') waiting = 'starting';
      // A stopping server goes away, and may come back (a restart).
      else if (now === 'draining' || (now === 'unreachable' && waiting === 'stopping'))
        waiting = 'stopping';
      // Ready at the first look, failed, or gone while starting: the page failed for a reason.
      else return setState('failed');
      setState(waiting);
      timer = setTimeout(() => void check(), POLL_MS);
    };
    void check();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);

  if (state === 'checking') {
    return <p role="status">Loading…</p>;
  }
  if (state === 'starting') {
    return (
      <Notice tone="info" title="The service is starting up">
        This page will load as soon as it is ready. On a first start that takes a minute or two.
      </Notice>
    );
  }
  if (state === 'stopping') {
    return (
      <Notice tone="info" title="The service is stopping">
        It is restarting or shutting down, so this page could not be loaded. It will load by itself
        when the service is back.
      </Notice>
    );
  }
  return (
    <div className="space-y-4">
      <Notice tone="error" title="This page could not be shown">
        Something went wrong on our side while loading it. Try again in a moment.
      </Notice>
      <button type="button" className="btn btn-primary" onClick={retry}>
        Try again
      </button>
    </div>
  );
}
