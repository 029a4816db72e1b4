CREATE TABLE "change_log" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"business_id" bigint NOT NULL,
	"table_name" text NOT NULL,
	"op" text NOT NULL,
	"row_id" text NOT NULL,
	"conversation_id" bigint,
	"old_last_message_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_groups" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"business_id" bigint NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"business_id" bigint NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	"channel" text NOT NULL,
	"initiator_id" bigint,
	"assigned_chat_group_id" bigint,
	"last_message_at" timestamp with time zone,
	"business_replied" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"business_id" bigint NOT NULL,
	"name" text,
	"email" text,
	"phone" text,
	"external_id" text,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"business_id" bigint NOT NULL,
	"conversation_id" bigint NOT NULL,
	"content" text NOT NULL,
	"message_type" text DEFAULT 'text' NOT NULL,
	"sender_type" text NOT NULL,
	"sender_id" bigint,
	"is_read" boolean DEFAULT false NOT NULL,
	"meta_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wa_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" bigint NOT NULL,
	"conversation_id" bigint NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"message_type" text DEFAULT 'text' NOT NULL,
	"sender_type" text NOT NULL,
	"sender_id" bigint,
	"is_read" boolean DEFAULT false NOT NULL,
	"meta_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text,
	"timestamp" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"position" bigserial NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_groups" ADD CONSTRAINT "chat_groups_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_initiator_id_customers_id_fk" FOREIGN KEY ("initiator_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_assigned_chat_group_id_chat_groups_id_fk" FOREIGN KEY ("assigned_chat_group_id") REFERENCES "public"."chat_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wa_messages" ADD CONSTRAINT "wa_messages_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wa_messages" ADD CONSTRAINT "wa_messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "change_log_business_seq_idx" ON "change_log" USING btree ("business_id","seq");--> statement-breakpoint
CREATE INDEX "change_log_created_idx" ON "change_log" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_groups_business_slug_key" ON "chat_groups" USING btree ("business_id","slug");--> statement-breakpoint
CREATE INDEX "conversations_list_idx" ON "conversations" USING btree ("business_id","last_message_at" desc nulls last,"id" desc);--> statement-breakpoint
CREATE INDEX "conversations_status_idx" ON "conversations" USING btree ("business_id","status","last_message_at" desc nulls last,"id" desc);--> statement-breakpoint
CREATE INDEX "conversations_read_idx" ON "conversations" USING btree ("business_id","is_read","last_message_at" desc nulls last,"id" desc);--> statement-breakpoint
CREATE INDEX "conversations_replied_idx" ON "conversations" USING btree ("business_id","business_replied","last_message_at" desc nulls last,"id" desc);--> statement-breakpoint
CREATE INDEX "conversations_channel_idx" ON "conversations" USING btree ("business_id","channel","last_message_at" desc nulls last,"id" desc);--> statement-breakpoint
CREATE INDEX "conversations_created_idx" ON "conversations" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE INDEX "conversations_initiator_idx" ON "conversations" USING btree ("initiator_id");--> statement-breakpoint
CREATE INDEX "conversations_group_idx" ON "conversations" USING btree ("assigned_chat_group_id");--> statement-breakpoint
CREATE INDEX "customers_business_created_idx" ON "customers" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE INDEX "customers_business_email_idx" ON "customers" USING btree ("business_id",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "customers_business_external_key" ON "customers" USING btree ("business_id","external_id");--> statement-breakpoint
CREATE INDEX "messages_conversation_idx" ON "messages" USING btree ("conversation_id","id");--> statement-breakpoint
CREATE INDEX "wa_messages_conversation_idx" ON "wa_messages" USING btree ("conversation_id","position");