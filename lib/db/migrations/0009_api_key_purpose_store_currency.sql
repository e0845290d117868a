ALTER TABLE "api_keys" ADD COLUMN "purpose" text;--> statement-breakpoint
-- Keys the built-in dashboard developer was given before keys had a purpose were its dashboard's.
UPDATE "api_keys" SET "purpose" = 'dashboard'
WHERE "developer_id" IN (SELECT "id" FROM "developers" WHERE "name" = 'Dashboard (built-in)');--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "currency" text;
