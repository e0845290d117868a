'use client';

import { useState, useTransition } from 'react';
import { describeFailure } from '@/components/code-words';
import { Notice } from '@/components/notice';
import { chooseProfileAction, createProfileAction, signOutProfileAction } from './actions';

export function ProfilePicker({ currentId }: { currentId?: string }) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<string>();
  const [id, setId] = useState('');

  const run = (work: () => Promise<{ ok: boolean; code?: string; error?: string } | void>) =>
    start(async () => {
      setError(undefined);
      const result = await work();
      if (result && !result.ok) setError(describeFailure(result.code ?? '', result.error));
    });

  return (
    <section aria-labelledby="profile-choose" className="card space-y-3">
      <h2 id="profile-choose" className="text-lg font-semibold">
        {currentId ? 'Switch profile' : 'Choose a profile'}
      </h2>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn btn-primary"
          disabled={pending}
          onClick={() => run(createProfileAction)}
        >
          Create a new profile
        </button>
        {currentId && (
          <button
            type="button"
            className="btn btn-secondary"
            disabled={pending}
            onClick={() => run(signOutProfileAction)}
          >
            Stop using this profile
          </button>
        )}
      </div>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          run(() => chooseProfileAction(id));
        }}
      >
        <div className="min-w-60 flex-1">
          <label htmlFor="profile-id" className="block text-sm font-medium">
            Use an existing profile id
          </label>
          <input
            id="profile-id"
            className="input mt-1"
            value={id}
            onChange={(e) => setId(e.target.value)}
            placeholder="prof_..."
          />
        </div>
        <button type="submit" className="btn btn-secondary" disabled={pending || !id.trim()}>
          Use this profile
        </button>
      </form>
      {error && <Notice tone="error">{error}</Notice>}
    </section>
  );
}
