import { and, eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import { newId } from '../../db/ids';
import { storeCustomerAddresses, storeCustomers } from '../../db/schema';
import type { Destination } from './types';

type AddressRow = typeof storeCustomerAddresses.$inferSelect;

function customerByEmail(db: Db, storeId: string, email: string) {
  return db
    .select()
    .from(storeCustomers)
    .where(
      and(
        eq(storeCustomers.storeId, storeId),
        sql`lower(${storeCustomers.email}) = ${email.toLowerCase()}`,
      ),
    )
    .limit(1);
}

function toDestination(a: AddressRow): Destination {
  return {
    id: a.id,
    street_address: a.streetAddress,
    ...(a.extendedAddress ? { extended_address: a.extendedAddress } : {}),
    address_locality: a.city,
    address_region: a.region,
    postal_code: a.postalCode,
    address_country: a.country,
    ...(a.firstName ? { first_name: a.firstName } : {}),
    ...(a.lastName ? { last_name: a.lastName } : {}),
  };
}

/** A known buyer's saved addresses, oldest first; none for an unknown e-mail. */
export async function savedAddresses(
  db: Db,
  storeId: string,
  email: string,
): Promise<Destination[]> {
  const [customer] = await customerByEmail(db, storeId, email);
  if (!customer) return [];
  const rows = await db
    .select()
    .from(storeCustomerAddresses)
    .where(
      and(
        eq(storeCustomerAddresses.storeId, storeId),
        eq(storeCustomerAddresses.customerId, customer.id),
      ),
    )
    .orderBy(storeCustomerAddresses.createdAt, storeCustomerAddresses.id);
  return rows.map(toDestination);
}

/** What makes two addresses the same place (names and phone aside). */
function samePlace(a: AddressRow, d: Destination): boolean {
  return (
    a.streetAddress === (d.street_address ?? '') &&
    a.city === (d.address_locality ?? '') &&
    a.region === (d.address_region ?? '') &&
    a.postalCode === (d.postal_code ?? '') &&
    a.country === (d.address_country ?? '').toUpperCase()
  );
}

/**
 * Keeps a buyer's address for the next checkout (a buyer not yet known becomes a customer of
 * the store) and returns its id: the saved one when the buyer has this address already, else
 * the id the client gave it when no other address of the store holds that id, else a new one.
 */
export async function saveAddress(
  db: Db,
  storeId: string,
  email: string,
  destination: Partial<Destination>,
): Promise<string> {
  let [customer] = await customerByEmail(db, storeId, email);
  if (!customer) {
    [customer] = await db
      .insert(storeCustomers)
      .values({ storeId, id: `cust_${randomUUID()}`, email, name: '' })
      .returning();
  }
  const own = await db
    .select()
    .from(storeCustomerAddresses)
    .where(
      and(
        eq(storeCustomerAddresses.storeId, storeId),
        eq(storeCustomerAddresses.customerId, customer!.id),
      ),
    );
  const same = own.find((a) => samePlace(a, destination as Destination));
  if (same) return same.id;
  const values = {
    storeId,
    customerId: customer!.id,
    streetAddress: destination.street_address ?? '',
    extendedAddress: destination.extended_address ?? null,
    city: destination.address_locality ?? '',
    region: destination.address_region ?? '',
    postalCode: destination.postal_code ?? '',
    country: (destination.address_country ?? '').toUpperCase(),
    firstName: destination.first_name ?? null,
    lastName: destination.last_name ?? null,
  };
  if (destination.id) {
    const [kept] = await db
      .insert(storeCustomerAddresses)
      .values({ ...values, id: destination.id })
      .onConflictDoNothing()
      .returning({ id: storeCustomerAddresses.id });
    if (kept) return kept.id;
  }
  const [saved] = await db
    .insert(storeCustomerAddresses)
    .values({ ...values, id: newId('addr') })
    .returning({ id: storeCustomerAddresses.id });
  return saved!.id;
}
