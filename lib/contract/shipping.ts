import { iso31661, iso31662 } from 'iso-3166';
import { isValidPhoneNumber, type CountryCode } from 'libphonenumber-js';
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { z } from 'zod';
import { idInput, isoTimestamp } from './common';
import { singleLine } from './plain-text';

const COUNTRIES = new Set(iso31661.map((c) => c.alpha2));

/**
 * Countries whose store-platform province codes are the ISO 3166-2 subdivision codes, so they
 * can be checked exactly. Elsewhere platforms use their own lists, and any code is accepted.
 */
const CHECKED_SUBDIVISION_COUNTRIES = new Set(['US', 'CA', 'AU', 'MX', 'IN', 'BR', 'ES', 'IT']);
/** US military mail regions: valid shipping "states" that ISO 3166-2 does not list. */
const EXTRA_SUBDIVISIONS: Record<string, string[]> = { US: ['AA', 'AE', 'AP'] };

const subdivisions = new Map<string, Set<string>>();
for (const s of iso31662) {
  const [country, sub] = s.code.split('-') as [string, string];
  if (!subdivisions.has(country))
    subdivisions.set(country, new Set(EXTRA_SUBDIVISIONS[country] ?? []));
  subdivisions.get(country)!.add(sub);
}

export function provinceCodesFor(country: string): string[] | undefined {
  if (!CHECKED_SUBDIVISION_COUNTRIES.has(country)) return undefined;
  return [...(subdivisions.get(country) ?? [])].sort();
}

const text = (max: number) =>
  singleLine(z.string().trim()).min(1, 'is required').max(max, `must be at most ${max} characters`);

const addressFields = z.object({
  first_name: text(100),
  last_name: text(100),
  email: singleLine(z.string().trim()).max(254).pipe(z.email('must be a valid e-mail address')),
  phone: text(40),
  address_1: text(255),
  address_2: singleLine(z.string().trim()).max(255, 'must be at most 255 characters').nullish(),
  city: text(100),
  country_code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'must be a two-letter country code such as US or CA')
    .refine((c) => COUNTRIES.has(c), 'is not an ISO 3166-1 country code'),
  province_code: singleLine(z.string().trim())
    .toUpperCase()
    .min(1, 'is required')
    .max(10, 'must be at most 10 characters')
    // Accept the ISO form "US-CA" as well as the bare "CA" platforms use.
    .transform((v) => v.replace(/^[A-Z]{2}-/, '')),
  postal_code: singleLine(z.string().trim())
    .toUpperCase()
    .min(1, 'is required')
    .max(20, 'must be at most 20 characters'),
});

/** Checks that depend on the country: province list, postal format, phone numbering plan. */
function checkAgainstCountry(a: z.infer<typeof addressFields>, ctx: z.RefinementCtx): void {
  const country = a.country_code;
  if (!COUNTRIES.has(country)) return;
  const provinces = provinceCodesFor(country);
  if (provinces && !provinces.includes(a.province_code)) {
    ctx.addIssue({
      code: 'custom',
      path: ['province_code'],
      message: `is not a province or state of ${country} (expected one of ${provinces.join(', ')})`,
    });
  }
  if (postcodeValidatorExistsForCountry(country) && !postcodeValidator(a.postal_code, country)) {
    ctx.addIssue({
      code: 'custom',
      path: ['postal_code'],
      message: `is not a valid postal code for ${country}`,
    });
  }
  if (!isValidPhoneNumber(a.phone, country as CountryCode)) {
    ctx.addIssue({
      code: 'custom',
      path: ['phone'],
      message: `is not a valid phone number for ${country} (use the national form or +<country code>)`,
    });
  }
}

export const shippingAddressInput = addressFields.superRefine(checkAgainstCountry).meta({
  id: 'ShippingAddressInput',
  description: 'A complete shipping address; every required field must be sent.',
});

export type ShippingAddressInput = z.output<typeof shippingAddressInput>;
export type ShippingAddressFormValues = z.input<typeof shippingAddressInput>;

export const createShippingRequest = z
  .object({ shipping_address: shippingAddressInput, profile_id: idInput })
  .meta({ id: 'CreateShippingRequest' });

export const updateShippingRequest = z
  .object({ shipping_address: shippingAddressInput })
  .meta({ id: 'UpdateShippingRequest' });

export const shippingRecord = z
  .object({
    id: z.string(),
    profile_id: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone: z.string(),
    address_1: z.string(),
    address_2: z.string().nullable(),
    city: z.string(),
    country_code: z.string(),
    province_code: z.string(),
    postal_code: z.string(),
    created_at: isoTimestamp.optional(),
    updated_at: isoTimestamp.optional(),
  })
  .meta({ id: 'Shipping' });

export type ShippingRecord = z.infer<typeof shippingRecord>;

export const createShippingResponse = z
  .object({
    success: z.literal(true),
    shipping: shippingRecord,
    attached_profile_id: z.string(),
    code: z.literal('SHIPPING_CREATED'),
  })
  .meta({ id: 'CreateShippingResponse' });

export const updateShippingResponse = z
  .object({
    success: z.literal(true),
    shipping: shippingRecord,
    id: z.string(),
    code: z.literal('SHIPPING_UPDATED'),
  })
  .meta({ id: 'UpdateShippingResponse' });
