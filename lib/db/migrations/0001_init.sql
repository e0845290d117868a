CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "developers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"plan" text DEFAULT 'free' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "embedding_cache" (
	"model_id" text NOT NULL,
	"input_hash" text NOT NULL,
	"embedding" vector NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "embedding_cache_model_id_input_hash_pk" PRIMARY KEY("model_id","input_hash")
);
--> statement-breakpoint
CREATE TABLE "image_cache" (
	"url" text NOT NULL,
	"model_id" text NOT NULL,
	"content_hash" text NOT NULL,
	"embedding" vector NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "image_cache_url_model_id_pk" PRIMARY KEY("url","model_id")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"store_id" text NOT NULL,
	"idempotency_key" text,
	"request_hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"platform_order_id" text,
	"error_code" text,
	"error_message" text,
	"lines" jsonb NOT NULL,
	"shipping" jsonb NOT NULL,
	"response" jsonb,
	"response_status" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"total_price" numeric(12, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_embeddings" (
	"product_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"model_id" text NOT NULL,
	"input_hash" text NOT NULL,
	"embedding" vector NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_embeddings_product_id_kind_model_id_pk" PRIMARY KEY("product_id","kind","model_id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" text NOT NULL,
	"external_id" text NOT NULL,
	"handle" text DEFAULT '' NOT NULL,
	"title" text NOT NULL,
	"body_html" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"vendor" text DEFAULT '' NOT NULL,
	"product_type" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"raw" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"search_text" "tsvector",
	"price_min" numeric(12, 2),
	"price_max" numeric(12, 2),
	"available" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"shipping_address_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipping_addresses" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"address_1" text NOT NULL,
	"address_2" text,
	"city" text NOT NULL,
	"country_code" text NOT NULL,
	"province_code" text NOT NULL,
	"postal_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_allowed_developers" (
	"store_id" text NOT NULL,
	"developer_id" text NOT NULL,
	CONSTRAINT "store_allowed_developers_store_id_developer_id_pk" PRIMARY KEY("store_id","developer_id")
);
--> statement-breakpoint
CREATE TABLE "stores" (
	"id" text PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"name" text NOT NULL,
	"platform" text DEFAULT 'shopify' NOT NULL,
	"base_url" text,
	"access_policy" text DEFAULT 'open' NOT NULL,
	"admin_token_encrypted" text,
	"verified" boolean DEFAULT false NOT NULL,
	"verification_reason" text,
	"verified_at" timestamp with time zone,
	"sync_state" text DEFAULT 'never' NOT NULL,
	"sync_started_at" timestamp with time zone,
	"sync_finished_at" timestamp with time zone,
	"sync_progress" jsonb,
	"sync_last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "styles" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"text" text NOT NULL,
	"embedding" vector NOT NULL,
	"embedding_model" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_errors" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" text NOT NULL,
	"external_id" text,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "term_stats" (
	"store_id" text NOT NULL,
	"term" text NOT NULL,
	"doc_freq" integer NOT NULL,
	CONSTRAINT "term_stats_store_id_term_pk" PRIMARY KEY("store_id","term")
);
--> statement-breakpoint
CREATE TABLE "variants" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" bigint NOT NULL,
	"store_id" text NOT NULL,
	"external_id" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"option1" text,
	"option2" text,
	"option3" text,
	"sku" text,
	"price" numeric(12, 2) NOT NULL,
	"available" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_embeddings" ADD CONSTRAINT "product_embeddings_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipping_addresses" ADD CONSTRAINT "shipping_addresses_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_allowed_developers" ADD CONSTRAINT "store_allowed_developers_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_allowed_developers" ADD CONSTRAINT "store_allowed_developers_developer_id_developers_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."developers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "styles" ADD CONSTRAINT "styles_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_errors" ADD CONSTRAINT "sync_errors_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variants" ADD CONSTRAINT "variants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_prefix_uq" ON "api_keys" USING btree ("prefix");--> statement-breakpoint
CREATE INDEX "api_keys_developer_idx" ON "api_keys" USING btree ("developer_id");--> statement-breakpoint
CREATE INDEX "image_cache_hash_idx" ON "image_cache" USING btree ("content_hash","model_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_idempotency_uq" ON "orders" USING btree ("developer_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "orders_profile_idx" ON "orders" USING btree ("developer_id","profile_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_store_idx" ON "orders" USING btree ("store_id","created_at");--> statement-breakpoint
CREATE INDEX "product_embeddings_model_idx" ON "product_embeddings" USING btree ("model_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "products_store_external_uq" ON "products" USING btree ("store_id","external_id");--> statement-breakpoint
CREATE INDEX "products_search_text_idx" ON "products" USING gin ("search_text");--> statement-breakpoint
CREATE INDEX "profiles_developer_idx" ON "profiles" USING btree ("developer_id");--> statement-breakpoint
CREATE INDEX "shipping_profile_idx" ON "shipping_addresses" USING btree ("profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stores_domain_uq" ON "stores" USING btree ("domain");--> statement-breakpoint
CREATE UNIQUE INDEX "styles_profile_uq" ON "styles" USING btree ("profile_id");--> statement-breakpoint
CREATE INDEX "sync_errors_store_idx" ON "sync_errors" USING btree ("store_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "variants_store_external_uq" ON "variants" USING btree ("store_id","external_id");--> statement-breakpoint
CREATE INDEX "variants_product_idx" ON "variants" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "variants_price_idx" ON "variants" USING btree ("store_id","price");