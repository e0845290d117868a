import type { ShippingRecord } from '../contract/shipping';
import type { StyleRecord } from '../contract/styles';
import type { shippingAddresses, styles } from '../db/schema';

export function toStyleRecord(row: typeof styles.$inferSelect): StyleRecord {
  return {
    id: row.id,
    text: row.text,
    profile_id: row.profileId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toShippingRecord(row: typeof shippingAddresses.$inferSelect): ShippingRecord {
  return {
    id: row.id,
    profile_id: row.profileId,
    first_name: row.firstName,
    last_name: row.lastName,
    email: row.email,
    phone: row.phone,
    address_1: row.address1,
    address_2: row.address2,
    city: row.city,
    country_code: row.countryCode,
    province_code: row.provinceCode,
    postal_code: row.postalCode,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
