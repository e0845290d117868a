/**
 * The UCP checkout as this service answers and keeps it (spec 2026-01-11: checkout.json with
 * the fulfillment, discount and buyer-consent extensions). Amounts are integers in the
 * currency's minor units. Unknown fields of a client's buyer are kept as sent.
 */
export type TotalType = 'subtotal' | 'discount' | 'fulfillment' | 'tax' | 'total';

export interface Total {
  type: TotalType;
  amount: number;
}

export interface LineItem {
  id: string;
  item: { id: string; title: string; price: number; image_url?: string };
  quantity: number;
  totals: Total[];
  parent_id?: string;
}

/** A shipping destination: a postal address with an id. */
export interface Destination {
  id: string;
  street_address?: string;
  extended_address?: string;
  address_locality?: string;
  address_region?: string;
  postal_code?: string;
  address_country?: string;
  first_name?: string;
  last_name?: string;
  full_name?: string;
  phone_number?: string;
}

export interface FulfillmentOption {
  id: string;
  title: string;
  totals: Total[];
}

export interface FulfillmentGroup {
  id: string;
  line_item_ids: string[];
  selected_option_id: string | null;
  options: FulfillmentOption[];
}

export interface FulfillmentMethod {
  id: string;
  type: 'shipping' | 'pickup';
  line_item_ids: string[];
  /** Null, not [], when there is none to offer (the suite expects it so). */
  destinations: Destination[] | null;
  selected_destination_id: string | null;
  groups: FulfillmentGroup[];
}

export interface AppliedDiscount {
  code: string;
  title: string;
  amount: number;
  allocations: { path: string; amount: number }[];
}

export interface Message {
  type: 'error' | 'warning' | 'info';
  code: string;
  content: string;
  path?: string;
  severity?: 'recoverable' | 'requires_buyer_input' | 'requires_buyer_review';
}

export type CheckoutStatus =
  | 'incomplete'
  | 'requires_escalation'
  | 'ready_for_complete'
  | 'complete_in_progress'
  | 'completed'
  | 'canceled';

export interface Buyer {
  email?: string;
  first_name?: string;
  last_name?: string;
  full_name?: string;
  phone_number?: string;
  consent?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A payment instrument as kept and answered: its credential never is (payment/redact.ts). */
export type Instrument = { id: string; handler_id?: string; type?: string } & Record<
  string,
  unknown
>;

export interface Checkout {
  ucp: { version: string; capabilities: { name: string; version: string }[] };
  id: string;
  status: CheckoutStatus;
  currency: string;
  line_items: LineItem[];
  buyer?: Buyer;
  totals: Total[];
  messages: Message[];
  links: { type: string; url: string }[];
  expires_at: string;
  payment: {
    handlers: Record<string, unknown>[];
    selected_instrument_id?: string;
    instruments: Instrument[];
  };
  fulfillment?: { methods: FulfillmentMethod[] };
  discounts?: { codes: string[]; applied: AppliedDiscount[] };
  order?: { id: string; permalink_url: string };
}
