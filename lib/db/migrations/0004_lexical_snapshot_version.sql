DROP TABLE "term_stats" CASCADE;--> statement-breakpoint
ALTER TABLE "search_store_stats" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;