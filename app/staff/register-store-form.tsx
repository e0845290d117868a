'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Field } from '@/components/field';
import { useFormAction } from '../_client/action-outcome';
import { registerStoreAction } from './actions';

const optionalText = z
  .string()
  .trim()
  .transform((v) => v || undefined);

const schema = z.object({
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9.-]+\.[a-z]{2,}$|^localhost$/, 'must be a host name such as shop.example.com'),
  name: optionalText,
  base_url: optionalText.pipe(z.url('must be a URL such as http://127.0.0.1:4010').optional()),
});

export function RegisterStoreForm() {
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { domain: '', name: '', base_url: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const { onSubmit, notice } = useFormAction(
    form,
    registerStoreAction,
    (store) => `Store ${store.domain} registered.`,
    (result) => {
      if (result.ok) form.reset();
    },
  );
  return (
    <form noValidate className="card grid gap-3 sm:grid-cols-3" onSubmit={onSubmit}>
      <Field
        label="Domain"
        id="store-domain"
        placeholder="shop.example.com"
        error={errors.domain?.message && `Domain ${errors.domain.message}`}
        {...form.register('domain')}
      />
      <Field
        label="Name (optional)"
        id="store-name"
        error={errors.name?.message}
        {...form.register('name')}
      />
      <Field
        label="Base URL (optional)"
        id="store-base-url"
        hint="Where products.json is fetched; empty means https://<domain>."
        error={errors.base_url?.message && `Base URL ${errors.base_url.message}`}
        {...form.register('base_url')}
      />
      <div className="sm:col-span-3">
        <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
          {isSubmitting ? 'Registering…' : 'Register store'}
        </button>
      </div>
      {notice && <div className="sm:col-span-3">{notice}</div>}
    </form>
  );
}
