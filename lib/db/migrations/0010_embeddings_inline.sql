-- Vectors live in their row instead of the table's TOAST relation. A 512-dimension vector takes
-- 2,052 bytes, just over the 2,032 above which PostgreSQL moves a value out of line, so every
-- similarity a search computes on its candidates (and every row of an exact scan of a store)
-- fetched its vector through the TOAST index, two chunks at a time. With the target at its
-- maximum a row is moved out of line only when it would not fit in a page (vectors of about
-- 2,000 dimensions and more). Rows written before this migration move in when rewritten
-- (re-embedding, or at once with VACUUM FULL product_embeddings).
ALTER TABLE product_embeddings SET (toast_tuple_target = 8160);
