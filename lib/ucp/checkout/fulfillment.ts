import type { Db } from '../../db/client';
import { newId } from '../../db/ids';
import { saveAddress, savedAddresses } from './addresses';
import { shippingOptions } from './store-rules';
import type { Destination, FulfillmentGroup, FulfillmentMethod, LineItem } from './types';

/** A fulfillment method as a client sends it (create or update). */
export interface MethodRequest {
  id?: string;
  type?: 'shipping' | 'pickup';
  line_item_ids?: string[];
  destinations?: (Partial<Destination> & Record<string, unknown>)[];
  selected_destination_id?: string | null;
  groups?: { id?: string; line_item_ids?: string[]; selected_option_id?: string | null }[];
}

interface Context {
  db: Db;
  storeId: string;
  buyerEmail: string | undefined;
  lineItemIds: string[];
}

/** The method a request's method updates: the one with its id, or the only one. */
function previousOf(
  request: MethodRequest,
  previous: FulfillmentMethod[],
): FulfillmentMethod | undefined {
  if (request.id) return previous.find((m) => m.id === request.id);
  return previous.length === 1 ? previous[0] : undefined;
}

const ADDRESS_FIELDS = [
  'street_address',
  'extended_address',
  'address_locality',
  'address_region',
  'postal_code',
  'address_country',
  'first_name',
  'last_name',
  'full_name',
  'phone_number',
] as const;

function addressOf(sent: MethodRequest['destinations'] & object, i: number): Partial<Destination> {
  const raw = sent[i]!;
  const out: Partial<Destination> = {};
  for (const field of ADDRESS_FIELDS) {
    if (typeof raw[field] === 'string') out[field] = raw[field];
  }
  if (out.address_country) out.address_country = out.address_country.toUpperCase();
  if (typeof raw.id === 'string') out.id = raw.id;
  return out;
}

/**
 * The destinations of a method: those sent (a known buyer's kept for the next checkout, with
 * the saved id when the buyer has the address already), else the method's previous ones, else
 * the buyer's saved addresses, else null. `renamed` maps a sent id to the id it got.
 */
async function destinationsOf(
  ctx: Context,
  request: MethodRequest,
  previous: FulfillmentMethod | undefined,
  renamed: Map<string, string>,
): Promise<Destination[] | null> {
  if (request.destinations?.length) {
    const out: Destination[] = [];
    for (let i = 0; i < request.destinations.length; i++) {
      const address = addressOf(request.destinations, i);
      const id = ctx.buyerEmail
        ? await saveAddress(ctx.db, ctx.storeId, ctx.buyerEmail, address)
        : (address.id ?? newId('addr'));
      if (address.id && address.id !== id) renamed.set(address.id, id);
      out.push({ ...address, id });
    }
    return out;
  }
  if (previous?.destinations?.length) return previous.destinations;
  if (ctx.buyerEmail) {
    const saved = await savedAddresses(ctx.db, ctx.storeId, ctx.buyerEmail);
    if (saved.length) return saved;
  }
  return null;
}

function groupsOf(
  ctx: Context,
  request: MethodRequest,
  previous: FulfillmentMethod | undefined,
): FulfillmentGroup[] {
  if (!request.groups) return previous?.groups ?? [];
  return request.groups.map((g, i) => {
    const before = (g.id && previous?.groups.find((p) => p.id === g.id)) || previous?.groups[i];
    return {
      id: g.id ?? before?.id ?? newId('grp'),
      line_item_ids: g.line_item_ids ?? ctx.lineItemIds,
      selected_option_id:
        g.selected_option_id !== undefined
          ? g.selected_option_id
          : (before?.selected_option_id ?? null),
      options: before?.options ?? [],
    };
  });
}

/**
 * The methods after a request: each sent method merged into the one it updates (what it omits,
 * destinations and selections, is kept). With no fulfillment in the request, the previous
 * methods stay as they were.
 */
export async function mergeMethods(
  ctx: Context,
  requested: MethodRequest[] | undefined,
  previous: FulfillmentMethod[],
): Promise<FulfillmentMethod[]> {
  if (!requested) return previous;
  const out: FulfillmentMethod[] = [];
  for (const request of requested) {
    const before = previousOf(request, previous);
    const type = request.type ?? before?.type ?? 'shipping';
    const renamed = new Map<string, string>();
    const destinations =
      type === 'shipping' ? await destinationsOf(ctx, request, before, renamed) : null;
    const selected =
      request.selected_destination_id !== undefined
        ? request.selected_destination_id
        : (before?.selected_destination_id ?? null);
    out.push({
      id: request.id ?? before?.id ?? newId('ful'),
      type,
      line_item_ids: request.line_item_ids ?? ctx.lineItemIds,
      destinations,
      selected_destination_id: selected === null ? null : (renamed.get(selected) ?? selected),
      groups: groupsOf(ctx, request, before),
    });
  }
  return out;
}

/**
 * Options for every method shipping to a selected destination, from the store's rates for the
 * basket as it is now (a new quantity can earn free shipping). A method with a destination but
 * no group gets one; a selected option the options no longer hold is dropped. Returns the cost
 * of the options chosen, or null while none is.
 */
export async function priceMethods(
  ctx: Context,
  methods: FulfillmentMethod[],
  lines: LineItem[],
  subtotal: number,
): Promise<number | null> {
  let cost: number | null = null;
  for (const method of methods) {
    method.line_item_ids = method.line_item_ids.filter((id) => lines.some((l) => l.id === id));
    if (!method.line_item_ids.length) method.line_item_ids = ctx.lineItemIds;
    const destination = method.destinations?.find((d) => d.id === method.selected_destination_id);
    if (method.type !== 'shipping' || !destination?.address_country) {
      for (const group of method.groups) {
        group.options = [];
        group.selected_option_id = null;
      }
      continue;
    }
    const itemIds = lines.filter((l) => method.line_item_ids.includes(l.id)).map((l) => l.item.id);
    const options = await shippingOptions(ctx.db, ctx.storeId, destination.address_country, {
      subtotal,
      itemIds,
    });
    if (!method.groups.length) {
      method.groups = [
        {
          id: newId('grp'),
          line_item_ids: method.line_item_ids,
          selected_option_id: null,
          options,
        },
      ];
    }
    for (const group of method.groups) {
      group.options = options;
      const chosen = options.find((o) => o.id === group.selected_option_id);
      if (!chosen) {
        group.selected_option_id = null;
        continue;
      }
      cost = (cost ?? 0) + chosen.totals.find((t) => t.type === 'total')!.amount;
    }
  }
  return cost;
}

/** Whether every method has a destination (shipping) and an option chosen in each group. */
export function fulfillmentChosen(methods: FulfillmentMethod[] | undefined): boolean {
  return Boolean(
    methods?.length &&
    methods.every(
      (m) =>
        (m.type !== 'shipping' || m.selected_destination_id) &&
        m.groups.length > 0 &&
        m.groups.every((g) => g.selected_option_id),
    ),
  );
}
