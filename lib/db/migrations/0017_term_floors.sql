ALTER TABLE "search_terms" ADD COLUMN "floor" real;--> statement-breakpoint
ALTER TABLE "search_terms" ADD COLUMN "above" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The floors of the terms already indexed: for each term held by more than 2000 products
-- (TERM_POSTINGS_READ, lib/search/term-floors.ts) the impact of its 2000th best posting and how
-- many postings reach it, as the indexer keeps them. One statement per term, as the indexer runs
-- them: on Citus the postings are distributed and search_terms stays on the coordinator.
DO $$
DECLARE
  t text;
  f real;
  n integer;
BEGIN
  FOR t IN SELECT term FROM search_terms WHERE df > 2000 ORDER BY term LOOP
    SELECT impact INTO f FROM search_postings WHERE term = t ORDER BY impact DESC LIMIT 1 OFFSET 1999;
    CONTINUE WHEN f IS NULL;
    SELECT count(*) INTO n FROM search_postings WHERE term = t AND impact >= f;
    UPDATE search_terms SET floor = f, above = n WHERE term = t;
  END LOOP;
END $$;
