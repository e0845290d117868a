'use client';

import { Notice } from '@/components/notice';

/** Any page that fails to render says so plainly, with a way to try again. */
export default function PageError({ reset }: { error: Error; reset: () => void }) {
  return (
    <div className="space-y-4">
      <Notice tone="error" title="This page could not be shown">
        Something went wrong on our side while loading it. Try again in a moment.
      </Notice>
      <button type="button" className="btn btn-primary" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
