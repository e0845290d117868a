-- One order per UCP checkout, but a failed one (the store refused it) no longer blocks the next
-- attempt to complete the checkout.
DROP INDEX "orders_checkout_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "orders_checkout_uq" ON "orders" USING btree ("checkout_id") WHERE "orders"."checkout_id" IS NOT NULL AND "orders"."status" <> 'failed';