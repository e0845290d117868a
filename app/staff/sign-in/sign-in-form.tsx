'use client';

import { useState, useTransition } from 'react';
import { Notice } from '@/components/notice';
import { signInAction } from '../actions';

export function SignInForm() {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  return (
    <form
      className="card max-w-md space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          setError(undefined);
          const result = await signInAction(token);
          if (result && !result.ok) setError(result.error);
        });
      }}
    >
      <div>
        <label htmlFor="operator-token" className="block text-sm font-medium">
          Operator token
        </label>
        <input
          id="operator-token"
          type="password"
          autoComplete="current-password"
          required
          className="input mt-1"
          value={token}
          onChange={(e) => setToken(e.target.value)}
        />
      </div>
      <button type="submit" className="btn btn-primary" disabled={pending || !token}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
      {error && <Notice tone="error">{error}</Notice>}
    </form>
  );
}
