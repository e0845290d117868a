CREATE TABLE "search_corpus_stats" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"doc_count" double precision NOT NULL,
	"total_len" double precision NOT NULL,
	CONSTRAINT "search_corpus_stats_one_row" CHECK ("search_corpus_stats"."one")
);--> statement-breakpoint
-- The one row, from the stores' rows as they stand; on Citus both tables stay on the coordinator.
INSERT INTO "search_corpus_stats" ("doc_count", "total_len")
SELECT coalesce(sum("doc_count"), 0), coalesce(sum("total_len"), 0) FROM "search_store_stats";
