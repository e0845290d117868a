-- Rules synced from a store's platform (issue 50): each part of a store's rules records its
-- source, 'shopify' (the sync) or 'import' (store import-rules), so that the sync never
-- overwrites an import. A Shopify shipping rate covers every country of its zone, so a rate id
-- is unique per country, not per store.
CREATE TABLE "store_rule_sources" (
	"store_id" text NOT NULL,
	"part" text NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_rule_sources_store_id_part_pk" PRIMARY KEY("store_id","part")
);
--> statement-breakpoint
ALTER TABLE "store_shipping_rates" DROP CONSTRAINT "store_shipping_rates_store_id_id_pk";--> statement-breakpoint
ALTER TABLE "store_shipping_rates" ADD CONSTRAINT "store_shipping_rates_store_id_country_code_id_pk" PRIMARY KEY("store_id","country_code","id");--> statement-breakpoint
ALTER TABLE "store_rule_sources" ADD CONSTRAINT "store_rule_sources_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- On a Citus coordinator: a reference table like the rules it describes (0023). Plain
-- PostgreSQL and PGlite skip this block.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    ALTER TABLE "store_rule_sources" DROP CONSTRAINT "store_rule_sources_store_id_stores_id_fk";
    PERFORM create_reference_table('store_rule_sources');
    ALTER TABLE "store_rule_sources" ADD CONSTRAINT "store_rule_sources_store_id_stores_id_fk"
      FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade;
  END IF;
END $$;--> statement-breakpoint
-- Rules written before this migration were imported (the import was their only source): they
-- stay the import's, so the first sync does not replace them. One statement per part: Citus
-- 13.2 answers "INSERT has more target columns than expressions" to one INSERT ... SELECT ...
-- UNION into this table once its foreign key to stores makes it a Citus table.
INSERT INTO "store_rule_sources" ("store_id", "part", "source")
SELECT DISTINCT "store_id", 'shipping_rates'::text, 'import'::text FROM "store_shipping_rates";--> statement-breakpoint
INSERT INTO "store_rule_sources" ("store_id", "part", "source")
SELECT DISTINCT "store_id", 'discounts'::text, 'import'::text FROM "store_discount_codes";--> statement-breakpoint
INSERT INTO "store_rule_sources" ("store_id", "part", "source")
SELECT DISTINCT "store_id", 'promotions'::text, 'import'::text FROM "store_promotions";--> statement-breakpoint
INSERT INTO "store_rule_sources" ("store_id", "part", "source")
SELECT DISTINCT "store_id", 'customers'::text, 'import'::text FROM "store_customers";
