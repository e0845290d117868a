-- The term index carries each posting's tf and document length, so that reading a term's postings
-- whole (the all-stores postings cache, lib/search/retrieve/term-postings-cache.ts) is an
-- index-only scan. Read through the heap, a common term's postings each sat on a page of their
-- own: at 1.09M products `red` read 18,938 heap pages for 19,943 postings, 0.2 s from the OS's
-- cache and 3.4 s from disk, against 8 ms from this index (docs/bench-log.md, Scale). Same name,
-- columns and order as before; the index is rebuilt once, which on a large catalogue takes a while
-- (47 s for 33M postings with 2 GB of maintenance_work_mem).
DROP INDEX IF EXISTS "search_postings_term_impact_idx";--> statement-breakpoint
CREATE INDEX "search_postings_term_impact_idx" ON "search_postings" USING btree ("term","impact" DESC NULLS LAST,"store_id","product_id") INCLUDE ("tf","doc_len");
