'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { describeFailure } from '@/components/code-words';
import { Notice } from '@/components/notice';
import type { ActionResult } from '../_server/action-result';

/**
 * What a dashboard form does with a server action's result: a line for the person (the success
 * words, or the failure in plain words) and, after a success, the page's server parts reloaded.
 * `run` hands the result back for what the form does besides (field errors, a reset).
 */
export function useActionOutcome() {
  const router = useRouter();
  const [outcome, setOutcome] = useState<{ ok: boolean; words: string }>();
  async function run<T>(
    work: () => Promise<ActionResult<T>>,
    success: (data: T) => string,
  ): Promise<ActionResult<T>> {
    setOutcome(undefined);
    const result = await work();
    setOutcome(
      result.ok
        ? { ok: true, words: success(result.data) }
        : { ok: false, words: describeFailure(result.code, result.error) },
    );
    if (result.ok) router.refresh();
    return result;
  }
  const notice = outcome && (
    <Notice tone={outcome.ok ? 'success' : 'error'}>{outcome.words}</Notice>
  );
  return { run, notice };
}

/**
 * A react-hook-form form that submits its checked values to a server action: the submit handler
 * for `<form onSubmit>` and the outcome's notice. `after` sees the result (field errors, reset).
 */
export function useFormAction<I extends FieldValues, V, T>(
  form: UseFormReturn<I, unknown, V>,
  action: (values: V) => Promise<ActionResult<T>>,
  success: (data: T) => string,
  after?: (result: ActionResult<T>) => void,
) {
  const { run, notice } = useActionOutcome();
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) =>
    void form.handleSubmit(async (values) => {
      const result = await run(() => action(values), success);
      after?.(result);
    })(event);
  return { onSubmit, notice };
}
