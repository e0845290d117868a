-- UCP (issue 50): the store's checkout rules (shipping rates, discount codes, promotions,
-- customers and their saved addresses), stock on variants, the store's UCP settings, checkout
-- sessions, UCP idempotency records and the webhook outbox; orders gain their source, checkout,
-- agent profile and UCP body, and may belong to a keyless agent (no developer, no profile).
CREATE TABLE "checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"store_id" text NOT NULL,
	"owner" text NOT NULL,
	"developer_id" text,
	"agent_profile" text,
	"status" text NOT NULL,
	"checkout" jsonb NOT NULL,
	"buyer_email" text,
	"order_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_customer_addresses" (
	"store_id" text NOT NULL,
	"id" text NOT NULL,
	"customer_id" text NOT NULL,
	"street_address" text DEFAULT '' NOT NULL,
	"extended_address" text,
	"city" text DEFAULT '' NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"postal_code" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"first_name" text,
	"last_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_customer_addresses_store_id_id_pk" PRIMARY KEY("store_id","id")
);
--> statement-breakpoint
CREATE TABLE "store_customers" (
	"store_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"email" text NOT NULL,
	CONSTRAINT "store_customers_store_id_id_pk" PRIMARY KEY("store_id","id")
);
--> statement-breakpoint
CREATE TABLE "store_discount_codes" (
	"store_id" text NOT NULL,
	"code" text NOT NULL,
	"type" text NOT NULL,
	"value" bigint NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	CONSTRAINT "store_discount_codes_store_id_code_pk" PRIMARY KEY("store_id","code")
);
--> statement-breakpoint
CREATE TABLE "store_promotions" (
	"store_id" text NOT NULL,
	"id" text NOT NULL,
	"type" text NOT NULL,
	"min_subtotal" bigint,
	"eligible_item_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	CONSTRAINT "store_promotions_store_id_id_pk" PRIMARY KEY("store_id","id")
);
--> statement-breakpoint
CREATE TABLE "store_shipping_rates" (
	"store_id" text NOT NULL,
	"id" text NOT NULL,
	"country_code" text NOT NULL,
	"service_level" text NOT NULL,
	"price" bigint NOT NULL,
	"title" text NOT NULL,
	CONSTRAINT "store_shipping_rates_store_id_id_pk" PRIMARY KEY("store_id","id")
);
--> statement-breakpoint
CREATE TABLE "store_ucp_settings" (
	"store_id" text PRIMARY KEY NOT NULL,
	"agent_access" text DEFAULT 'keys' NOT NULL,
	"payment_handlers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ucp_idempotency" (
	"owner" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ucp_idempotency_owner_key_pk" PRIMARY KEY("owner","key")
);
--> statement-breakpoint
CREATE TABLE "ucp_webhook_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" text NOT NULL,
	"order_id" text NOT NULL,
	"event_type" text NOT NULL,
	"url" text,
	"payload" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "developer_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "profile_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "source" text DEFAULT 'api' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "checkout_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "agent_profile" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "ucp" jsonb;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "inventory_quantity" integer;--> statement-breakpoint
ALTER TABLE "store_customer_addresses" ADD CONSTRAINT "store_customer_addresses_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_customers" ADD CONSTRAINT "store_customers_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_discount_codes" ADD CONSTRAINT "store_discount_codes_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_promotions" ADD CONSTRAINT "store_promotions_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_shipping_rates" ADD CONSTRAINT "store_shipping_rates_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_ucp_settings" ADD CONSTRAINT "store_ucp_settings_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkout_sessions_owner_idx" ON "checkout_sessions" USING btree ("owner","created_at");--> statement-breakpoint
CREATE INDEX "store_customer_addresses_customer_idx" ON "store_customer_addresses" USING btree ("store_id","customer_id");--> statement-breakpoint
CREATE INDEX "store_customers_email_idx" ON "store_customers" USING btree ("store_id",lower("email"));--> statement-breakpoint
CREATE INDEX "ucp_idempotency_created_idx" ON "ucp_idempotency" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ucp_webhook_outbox_due_idx" ON "ucp_webhook_outbox" USING btree ("next_attempt_at") WHERE "ucp_webhook_outbox"."delivered_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_checkout_uq" ON "orders" USING btree ("checkout_id") WHERE "orders"."checkout_id" IS NOT NULL;--> statement-breakpoint
-- On a Citus coordinator: the store's rules become reference tables, like stores, which they
-- reference and are read with. Checkout sessions, UCP idempotency records and the webhook outbox
-- stay on the coordinator with orders, which a completion writes in the same transaction.
-- Plain PostgreSQL and PGlite skip this block.
DO $$
DECLARE
  t text;
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    FOREACH t IN ARRAY ARRAY['store_shipping_rates', 'store_discount_codes', 'store_promotions',
                             'store_customers', 'store_customer_addresses', 'store_ucp_settings']
    LOOP
      -- As in 0005: the foreign key to stores is dropped while the table is distributed.
      EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', t, t || '_store_id_stores_id_fk');
      PERFORM create_reference_table(t);
      EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade',
                     t, t || '_store_id_stores_id_fk');
    END LOOP;
  END IF;
END $$;