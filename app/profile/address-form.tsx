'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type Path } from 'react-hook-form';
import { Field } from '@/components/field';
import type { ShippingRecord } from '@/lib/api-client';
import {
  shippingAddressInput,
  type ShippingAddressFormValues,
  type ShippingAddressInput,
} from '@/lib/contract/shipping';
import { useFormAction } from '../_client/action-outcome';
import { saveAddressAction } from './actions';

const FIELDS: Array<{
  name: keyof ShippingAddressFormValues;
  label: string;
  autoComplete: string;
  type?: string;
  optional?: boolean;
}> = [
  { name: 'first_name', label: 'First name', autoComplete: 'given-name' },
  { name: 'last_name', label: 'Last name', autoComplete: 'family-name' },
  { name: 'email', label: 'E-mail', autoComplete: 'email', type: 'email' },
  { name: 'phone', label: 'Phone', autoComplete: 'tel', type: 'tel' },
  { name: 'address_1', label: 'Address line 1', autoComplete: 'address-line1' },
  { name: 'address_2', label: 'Address line 2', autoComplete: 'address-line2', optional: true },
  { name: 'city', label: 'City', autoComplete: 'address-level2' },
  { name: 'country_code', label: 'Country code (e.g. US)', autoComplete: 'country' },
  { name: 'province_code', label: 'Province or state code', autoComplete: 'address-level1' },
  { name: 'postal_code', label: 'Postal code', autoComplete: 'postal-code' },
];

function initialValues(saved?: ShippingRecord | null): ShippingAddressFormValues {
  return {
    first_name: saved?.first_name ?? '',
    last_name: saved?.last_name ?? '',
    email: saved?.email ?? '',
    phone: saved?.phone ?? '',
    address_1: saved?.address_1 ?? '',
    address_2: saved?.address_2 ?? '',
    city: saved?.city ?? '',
    country_code: saved?.country_code ?? '',
    province_code: saved?.province_code ?? '',
    postal_code: saved?.postal_code ?? '',
  };
}

/** The address form checks with the API's own schema (country-aware postal and phone rules). */
export function AddressForm({ saved }: { saved?: ShippingRecord | null }) {
  const form = useForm<ShippingAddressFormValues, unknown, ShippingAddressInput>({
    resolver: zodResolver(shippingAddressInput),
    defaultValues: initialValues(saved),
  });
  const { errors, isSubmitting } = form.formState;
  const { onSubmit, notice } = useFormAction(
    form,
    saveAddressAction,
    () => 'Address saved.',
    (result) => {
      if (result.ok) return;
      for (const issue of result.issues ?? []) {
        const field = issue.path.replace(/^shipping_address\./, '');
        if (FIELDS.some((f) => f.name === field))
          form.setError(field as Path<ShippingAddressFormValues>, { message: issue.message });
      }
    },
  );

  return (
    <form noValidate className="space-y-3" onSubmit={onSubmit}>
      <div className="grid gap-3 sm:grid-cols-2">
        {FIELDS.map((f) => (
          <Field
            key={f.name}
            id={`address-${f.name}`}
            label={f.optional ? `${f.label} (optional)` : f.label}
            type={f.type ?? 'text'}
            autoComplete={f.autoComplete}
            error={errors[f.name]?.message ? `${f.label} ${errors[f.name]?.message}` : undefined}
            {...form.register(f.name)}
          />
        ))}
      </div>
      <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
        {isSubmitting ? 'Saving…' : 'Save address'}
      </button>
      {notice}
    </form>
  );
}
