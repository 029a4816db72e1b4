CREATE TABLE "whatsapp_logs" (
	"tracking_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" bigint NOT NULL,
	"conversation_id" bigint,
	"wamid" text,
	"recipient" text NOT NULL,
	"type" text NOT NULL,
	"template_name" text,
	"status" text NOT NULL,
	"error_code" integer,
	"error_message" text,
	"pricing_category" text,
	"billable" boolean,
	"request" jsonb NOT NULL,
	"response" jsonb,
	"sent_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_media" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" bigint NOT NULL,
	"direction" text NOT NULL,
	"mime_type" text NOT NULL,
	"sha256" text,
	"file_size" bigint,
	"file_name" text,
	"storage_key" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stored_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "whatsapp_templates" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"business_id" bigint NOT NULL,
	"meta_id" text NOT NULL,
	"name" text NOT NULL,
	"language" text NOT NULL,
	"status" text NOT NULL,
	"category" text NOT NULL,
	"parameter_format" text,
	"components" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "whatsapp_logs" ADD CONSTRAINT "whatsapp_logs_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_media" ADD CONSTRAINT "whatsapp_media_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD CONSTRAINT "whatsapp_templates_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_logs_wamid_key" ON "whatsapp_logs" USING btree ("wamid");--> statement-breakpoint
CREATE INDEX "whatsapp_logs_business_created_idx" ON "whatsapp_logs" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE INDEX "whatsapp_media_business_idx" ON "whatsapp_media" USING btree ("business_id");--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_templates_name_key" ON "whatsapp_templates" USING btree ("business_id","name","language");