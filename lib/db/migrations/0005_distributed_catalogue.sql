-- The catalogue keyed by store (products, variants, product_embeddings, search_postings), so that
-- Citus can distribute it by store_id, co-located; the lexical index gains impact-ordered term
-- indexes and global statistics (search_terms). On Citus the tables are distributed at the end.
ALTER TABLE "product_embeddings" DROP CONSTRAINT "product_embeddings_product_id_products_id_fk";--> statement-breakpoint
ALTER TABLE "search_postings" DROP CONSTRAINT "search_postings_product_id_products_id_fk";--> statement-breakpoint
ALTER TABLE "variants" DROP CONSTRAINT "variants_product_id_products_id_fk";--> statement-breakpoint
DROP INDEX "products_search_text_idx";--> statement-breakpoint
DROP INDEX "search_postings_product_idx";--> statement-breakpoint
DROP INDEX "search_postings_version_idx";--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_pkey";--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_store_id_id_pk" PRIMARY KEY("store_id","id");--> statement-breakpoint
CREATE INDEX "products_id_idx" ON "products" USING btree ("id");--> statement-breakpoint
ALTER TABLE "variants" DROP CONSTRAINT "variants_pkey";--> statement-breakpoint
ALTER TABLE "variants" ADD CONSTRAINT "variants_store_id_id_pk" PRIMARY KEY("store_id","id");--> statement-breakpoint
ALTER TABLE "variants" ADD CONSTRAINT "variants_product_fk" FOREIGN KEY ("store_id","product_id") REFERENCES "public"."products"("store_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_embeddings" ADD COLUMN "store_id" text;--> statement-breakpoint
UPDATE "product_embeddings" pe SET "store_id" = p."store_id" FROM "products" p WHERE p."id" = pe."product_id";--> statement-breakpoint
ALTER TABLE "product_embeddings" ALTER COLUMN "store_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "product_embeddings" DROP CONSTRAINT "product_embeddings_product_id_kind_model_id_pk";--> statement-breakpoint
ALTER TABLE "product_embeddings" ADD CONSTRAINT "product_embeddings_store_id_product_id_kind_model_id_pk" PRIMARY KEY("store_id","product_id","kind","model_id");--> statement-breakpoint
ALTER TABLE "product_embeddings" ADD CONSTRAINT "product_embeddings_product_fk" FOREIGN KEY ("store_id","product_id") REFERENCES "public"."products"("store_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Postings written before impacts existed are rebuilt from products.search_text below.
DELETE FROM "search_postings";--> statement-breakpoint
DELETE FROM "search_store_stats";--> statement-breakpoint
ALTER TABLE "search_postings" DROP CONSTRAINT "search_postings_store_id_term_product_id_pk";--> statement-breakpoint
ALTER TABLE "search_postings" DROP COLUMN "version";--> statement-breakpoint
ALTER TABLE "search_postings" ADD COLUMN "impact" real NOT NULL;--> statement-breakpoint
ALTER TABLE "search_postings" ADD CONSTRAINT "search_postings_store_id_product_id_term_pk" PRIMARY KEY("store_id","product_id","term");--> statement-breakpoint
ALTER TABLE "search_postings" ADD CONSTRAINT "search_postings_product_fk" FOREIGN KEY ("store_id","product_id") REFERENCES "public"."products"("store_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_postings_term_impact_idx" ON "search_postings" USING btree ("term","impact" DESC NULLS LAST,"store_id","product_id");--> statement-breakpoint
CREATE INDEX "search_postings_store_term_impact_idx" ON "search_postings" USING btree ("store_id","term","impact" DESC NULLS LAST,"product_id");--> statement-breakpoint
ALTER TABLE "search_store_stats" DROP COLUMN "version";--> statement-breakpoint
ALTER TABLE "search_store_stats" DROP COLUMN "epoch";--> statement-breakpoint
CREATE TABLE "search_terms" (
	"term" text COLLATE "C" PRIMARY KEY NOT NULL,
	"df" integer NOT NULL
);--> statement-breakpoint
INSERT INTO "search_postings" ("store_id", "product_id", "term", "tf", "doc_len", "impact")
SELECT p."store_id", p."id", t.lexeme,
       (SELECT sum(CASE w WHEN 'A' THEN 1 WHEN 'B' THEN 0.5 ELSE 0.2 END) FROM unnest(t.weights) AS w),
       d.len, 0
FROM "products" p
CROSS JOIN LATERAL (
  SELECT coalesce(sum(CASE w WHEN 'A' THEN 1 WHEN 'B' THEN 0.5 ELSE 0.2 END), 0) AS len
  FROM unnest(p."search_text") AS x, unnest(x.weights) AS w) d
CROSS JOIN LATERAL unnest(p."search_text") AS t
WHERE p."search_text" IS NOT NULL;--> statement-breakpoint
INSERT INTO "search_store_stats" ("store_id", "doc_count", "total_len")
SELECT s."id",
       (SELECT count(*) FROM "products" p WHERE p."store_id" = s."id")::int,
       coalesce((SELECT sum(d."doc_len") FROM (SELECT DISTINCT "product_id", "doc_len" FROM "search_postings" sp WHERE sp."store_id" = s."id") d), 0)
FROM "stores" s;--> statement-breakpoint
UPDATE "search_postings" SET "impact" = "tf" * 2.2 / ("tf" + 1.2 * (0.25 + 0.75 * "doc_len" / greatest(
  (SELECT sum("total_len") / greatest(sum("doc_count"), 1) FROM "search_store_stats"), 1e-9)));--> statement-breakpoint
INSERT INTO "search_terms" ("term", "df") SELECT "term", count(*)::int FROM "search_postings" GROUP BY "term";--> statement-breakpoint
-- On a Citus coordinator: the catalogue distributed by store and co-located, the tables that
-- searches join (stores, their allow-lists, developers) copied to every node. Everything else,
-- the global search statistics included (search_store_stats, search_terms: one small read per
-- search), stays on the coordinator. Plain PostgreSQL and PGlite skip this block.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    -- Citus distributes a table only while no foreign key ties it to a table not yet distributed.
    ALTER TABLE "variants" DROP CONSTRAINT "variants_product_fk";
    ALTER TABLE "product_embeddings" DROP CONSTRAINT "product_embeddings_product_fk";
    ALTER TABLE "search_postings" DROP CONSTRAINT "search_postings_product_fk";
    ALTER TABLE "products" DROP CONSTRAINT "products_store_id_stores_id_fk";
    PERFORM create_reference_table('developers');
    PERFORM create_reference_table('stores');
    PERFORM create_reference_table('store_allowed_developers');
    PERFORM create_distributed_table('products', 'store_id');
    PERFORM create_distributed_table('variants', 'store_id', colocate_with => 'products');
    PERFORM create_distributed_table('product_embeddings', 'store_id', colocate_with => 'products');
    PERFORM create_distributed_table('search_postings', 'store_id', colocate_with => 'products');
    ALTER TABLE "products" ADD CONSTRAINT "products_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade;
    ALTER TABLE "variants" ADD CONSTRAINT "variants_product_fk" FOREIGN KEY ("store_id","product_id") REFERENCES "public"."products"("store_id","id") ON DELETE cascade;
    ALTER TABLE "product_embeddings" ADD CONSTRAINT "product_embeddings_product_fk" FOREIGN KEY ("store_id","product_id") REFERENCES "public"."products"("store_id","id") ON DELETE cascade;
    ALTER TABLE "search_postings" ADD CONSTRAINT "search_postings_product_fk" FOREIGN KEY ("store_id","product_id") REFERENCES "public"."products"("store_id","id") ON DELETE cascade;
  END IF;
END $$;
