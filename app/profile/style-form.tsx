'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { STYLE_TEXT_MAX, styleText } from '@/lib/contract/styles';
import { useFormAction } from '../_client/action-outcome';
import { saveStyleAction } from './actions';

// The API's own rule for the text, so the browser shows it before anything is sent.
const schema = z.object({ text: styleText });

export function StyleForm({ text }: { text?: string }) {
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { text: text ?? '' },
  });
  const { onSubmit, notice } = useFormAction(
    form,
    (values) => saveStyleAction(values.text),
    () => 'Style saved.',
  );
  const error = form.formState.errors.text?.message;

  return (
    <form noValidate className="space-y-3" onSubmit={onSubmit}>
      <div>
        <label htmlFor="style-text" className="block text-sm font-medium">
          Style description
        </label>
        <textarea
          id="style-text"
          rows={3}
          className="input mt-1"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'style-text-error' : 'style-text-hint'}
          {...form.register('text')}
        />
        {error ? (
          <p id="style-text-error" className="mt-1 text-sm text-red-700">
            Style {error}
          </p>
        ) : (
          <p id="style-text-hint" className="mt-1 text-sm text-slate-600">
            Colours, materials, patterns you like; up to {STYLE_TEXT_MAX} characters.
          </p>
        )}
      </div>
      <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? 'Saving…' : 'Save style'}
      </button>
      {notice}
    </form>
  );
}
