-- Each term's version, written by the indexer with any change of its postings: the key of a
-- server's cache of the postings all-stores searches read (lib/search/term-postings-cache.ts).
ALTER TABLE "search_terms" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;
