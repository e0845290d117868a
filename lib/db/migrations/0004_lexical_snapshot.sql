DROP TABLE IF EXISTS "term_stats" CASCADE;--> statement-breakpoint
ALTER TABLE "search_postings" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "search_store_stats" ADD COLUMN IF NOT EXISTS "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "search_store_stats" ADD COLUMN "epoch" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "search_postings_version_idx" ON "search_postings" USING btree ("store_id","version");
