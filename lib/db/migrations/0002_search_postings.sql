CREATE TABLE "search_postings" (
	"store_id" text NOT NULL,
	"term" text NOT NULL,
	"product_id" bigint NOT NULL,
	"tf" real NOT NULL,
	"doc_len" real NOT NULL,
	CONSTRAINT "search_postings_store_id_term_product_id_pk" PRIMARY KEY("store_id","term","product_id")
);
--> statement-breakpoint
CREATE TABLE "search_store_stats" (
	"store_id" text PRIMARY KEY NOT NULL,
	"doc_count" integer NOT NULL,
	"total_len" double precision NOT NULL
);
--> statement-breakpoint
ALTER TABLE "search_postings" ADD CONSTRAINT "search_postings_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_postings_product_idx" ON "search_postings" USING btree ("product_id");