ALTER TABLE "products" ADD COLUMN "image_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "image_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "image_error" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "image_unreachable_host" text;--> statement-breakpoint
CREATE INDEX "products_image_due_idx" ON "products" USING btree ("image_due_at") WHERE image_due_at IS NOT NULL;--> statement-breakpoint
-- Images that failed before the queue existed (no vector of any image model) are due at once.
UPDATE "products" p SET "image_due_at" = now()
WHERE jsonb_array_length(p."images") > 0
  AND NOT EXISTS (SELECT 1 FROM "product_embeddings" pe
                  WHERE pe."store_id" = p."store_id" AND pe."product_id" = p."id" AND pe."kind" = 'image');
