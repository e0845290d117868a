-- Pending orders get a lease (who settles them, until when) and the time from which a store lookup
-- that misses them is final; the API rate limiter keeps its per-key counters in rate_limits.
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "settle_after" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_pending_idx" ON "orders" USING btree ("lease_until") WHERE "orders"."status" = 'pending';