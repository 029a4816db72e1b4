-- The team inbox's business hours, SLA and CSAT (issue 29, next-api.md "Team inbox").
-- A chat group's hours (time zone, weekly ranges, holidays), its away message, its SLA targets and
-- whether resolving asks the customer for a rating.
ALTER TABLE "chat_groups" ADD COLUMN "business_hours" jsonb;
--> statement-breakpoint
ALTER TABLE "chat_groups" ADD COLUMN "away_message" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "chat_groups" ADD COLUMN "sla" jsonb;
--> statement-breakpoint
ALTER TABLE "chat_groups" ADD COLUMN "csat" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- The away reply goes once per conversation per closed period: the period's key (when the group
-- opens again) is part of the key, so two instances hearing the same message write one row.
CREATE TABLE "conversation_away_replies" (
  "conversation_id" bigint NOT NULL REFERENCES "conversations"("id") ON DELETE cascade,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "period" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "conversation_away_replies_pk" PRIMARY KEY ("conversation_id", "period")
);
--> statement-breakpoint
-- SLA clocks. opened_at: when the conversation was last reopened (null: since created_at);
-- first_response_at: the business's first reply since; resolved_at: when it was last resolved.
-- Kept by a trigger, so every path that reopens, replies or resolves keeps them alike.
ALTER TABLE "conversations" ADD COLUMN "opened_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "first_response_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "resolved_at" timestamp with time zone;
--> statement-breakpoint
CREATE FUNCTION conversations_sla_clocks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'resolved' AND NEW.status <> 'resolved' THEN
    NEW.opened_at := now();
    NEW.first_response_at := NULL;
    NEW.resolved_at := NULL;
  ELSIF NEW.status = 'resolved' AND OLD.status <> 'resolved' THEN
    NEW.resolved_at := now();
  END IF;
  IF NEW.business_replied AND NOT OLD.business_replied AND NEW.first_response_at IS NULL
     AND NEW.status <> 'resolved' THEN
    NEW.first_response_at := now();
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER conversations_sla_clocks BEFORE UPDATE OF status, business_replied ON conversations
  FOR EACH ROW EXECUTE FUNCTION conversations_sla_clocks();
--> statement-breakpoint
-- One alert per conversation, target and deadline: two instances never notify a breach twice.
CREATE TABLE "conversation_sla_alerts" (
  "conversation_id" bigint NOT NULL REFERENCES "conversations"("id") ON DELETE cascade,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "kind" text NOT NULL,
  "due_at" timestamp with time zone NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "conversation_sla_alerts_pk" PRIMARY KEY ("conversation_id", "kind", "due_at")
);
--> statement-breakpoint
-- Open conversations the SLA watch looks at (resolved ones never breach).
CREATE INDEX "conversations_sla_open_idx" ON "conversations" ("assigned_chat_group_id", "id")
  WHERE "status" <> 'resolved';
--> statement-breakpoint
-- Satisfaction surveys: one per resolve of a conversation whose group asks; answered by token.
CREATE TABLE "csat_surveys" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "conversation_id" bigint NOT NULL REFERENCES "conversations"("id") ON DELETE cascade,
  "chat_group_id" bigint REFERENCES "chat_groups"("id") ON DELETE set null,
  "assignee_id" bigint,
  "channel" text NOT NULL,
  "token" text NOT NULL,
  "rating" integer,
  "comment" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "csat_surveys_token_key" ON "csat_surveys" ("token");
--> statement-breakpoint
CREATE INDEX "csat_surveys_business_answered_idx" ON "csat_surveys" ("business_id", "answered_at");
--> statement-breakpoint
CREATE INDEX "csat_surveys_conversation_idx" ON "csat_surveys" ("conversation_id", "id");
