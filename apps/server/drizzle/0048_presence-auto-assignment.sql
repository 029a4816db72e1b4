-- Presence and auto-assignment (issue 29, next-api.md "Team inbox").
-- A member's presence: online / away / offline, set by hand (PUT /api/users/presence/) or by the web
-- app when idle; last_seen_at is refreshed while any realtime connection of theirs is open (on any
-- instance), and a presence not refreshed within the grace period turns offline.
CREATE TABLE "user_presence" (
  "user_id" bigint PRIMARY KEY NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
  "status" text DEFAULT 'offline' NOT NULL,
  "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "user_presence_status_idx" ON "user_presence" ("status", "last_seen_at");
--> statement-breakpoint
-- A chat group's auto-assignment: its mode, each member's capacity (open conversations of the group
-- assigned to them), and the round-robin cursor (the member assigned last).
CREATE TABLE "chat_group_assignment" (
  "chat_group_id" bigint PRIMARY KEY NOT NULL REFERENCES "chat_groups" ("id") ON DELETE CASCADE,
  "business_id" bigint NOT NULL REFERENCES "businesses" ("id") ON DELETE CASCADE,
  "mode" text DEFAULT 'off' NOT NULL,
  "capacity" integer DEFAULT 10 NOT NULL,
  "last_user_id" bigint,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "chat_group_assignment_business_idx" ON "chat_group_assignment" ("business_id");
--> statement-breakpoint
-- Since when a conversation waits to be auto-assigned: set when it is created or reopened without
-- an assignee, cleared once anyone (a person or the engine) assigns it or it is resolved. A
-- conversation is so auto-assigned once per opening; unassigning it by hand does not queue it again.
ALTER TABLE "conversations" ADD COLUMN "awaiting_assignment_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "conversations_awaiting_assignment_idx" ON "conversations"
  ("assigned_chat_group_id", "awaiting_assignment_at", "id") WHERE "awaiting_assignment_at" IS NOT NULL;
--> statement-breakpoint
CREATE FUNCTION conversations_awaiting_assignment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.assignee_id IS NOT NULL OR NEW.status <> 'active' THEN
    NEW.awaiting_assignment_at := NULL;
  ELSIF TG_OP = 'INSERT' THEN
    NEW.awaiting_assignment_at := coalesce(NEW.awaiting_assignment_at, now());
  ELSIF OLD.status <> 'active' THEN
    NEW.awaiting_assignment_at := now();
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER conversations_awaiting_assignment BEFORE INSERT OR UPDATE OF status, assignee_id ON conversations
  FOR EACH ROW EXECUTE FUNCTION conversations_awaiting_assignment();
