-- Alerts for staff (issue 29): notifications per member, their preferences per type, the browsers
-- a member receives Web Push in, and the server's VAPID key pair (the private key sealed).
CREATE TABLE "notifications" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL,
  "user_id" bigint NOT NULL,
  "type" text NOT NULL,
  "conversation_id" bigint REFERENCES "conversations"("id") ON DELETE cascade,
  -- What caused it (`messages:<id>`, `wa_messages:<wamid>`): one notification per member, type and
  -- cause, whichever instance heard it first.
  "source_key" text NOT NULL,
  "actor_id" bigint,
  "actor_name" text,
  "title" text NOT NULL,
  "body" text NOT NULL DEFAULT '',
  -- Shown in the bell (the member's in-app preference when it was made).
  "in_app" boolean NOT NULL DEFAULT true,
  "read_at" timestamp with time zone,
  -- The unread-after-15-minutes email: claimed (set) before it is sent, so it goes at most once.
  "email_claimed_at" timestamp with time zone,
  "pushed_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "notifications_membership_fk" FOREIGN KEY ("business_id", "user_id")
    REFERENCES "memberships" ("business_id", "user_id") ON DELETE cascade
);--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_source_key" ON "notifications" ("user_id", "business_id", "type", "source_key");--> statement-breakpoint
CREATE INDEX "notifications_member_idx" ON "notifications" ("business_id", "user_id", "id" DESC);--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" ("business_id", "user_id") WHERE "read_at" IS NULL AND "in_app";--> statement-breakpoint
CREATE INDEX "notifications_email_due_idx" ON "notifications" ("created_at") WHERE "read_at" IS NULL AND "email_claimed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "notifications_conversation_idx" ON "notifications" ("conversation_id");--> statement-breakpoint
CREATE TABLE "notification_preferences" (
  "business_id" bigint NOT NULL,
  "user_id" bigint NOT NULL,
  "type" text NOT NULL,
  "in_app" boolean NOT NULL,
  "push" boolean NOT NULL,
  "email" boolean NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "notification_preferences_pk" PRIMARY KEY ("business_id", "user_id", "type"),
  CONSTRAINT "notification_preferences_membership_fk" FOREIGN KEY ("business_id", "user_id")
    REFERENCES "memberships" ("business_id", "user_id") ON DELETE cascade
);--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL,
  "user_id" bigint NOT NULL,
  -- The sign-in it was made in: it ends with it (logout, revocation, expiry).
  "session_id" uuid NOT NULL REFERENCES "sessions"("id") ON DELETE cascade,
  "endpoint" text NOT NULL,
  "p256dh" text NOT NULL,
  "auth" text NOT NULL,
  "user_agent" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "push_subscriptions_membership_fk" FOREIGN KEY ("business_id", "user_id")
    REFERENCES "memberships" ("business_id", "user_id") ON DELETE cascade
);--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_key" ON "push_subscriptions" ("business_id", "endpoint");--> statement-breakpoint
CREATE INDEX "push_subscriptions_member_idx" ON "push_subscriptions" ("business_id", "user_id");--> statement-breakpoint
CREATE INDEX "push_subscriptions_session_idx" ON "push_subscriptions" ("session_id");--> statement-breakpoint
CREATE TABLE "web_push_keys" (
  "id" smallint PRIMARY KEY NOT NULL CHECK ("id" = 1),
  "public_key" text NOT NULL,
  "private_key_sealed" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
