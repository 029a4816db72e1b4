-- Custom roles (issue 34): a business's own sets of the existing permissions, optionally scoped to
-- chat groups (a scoped role sees those groups' conversations and the unassigned ones, as an agent
-- sees their own groups'). Members and API keys hold a built-in role (memberships.role, api_keys.role)
-- or one of these (custom_role_id; memberships.role is then 'agent', the base for owner counting).
-- A role in use cannot be deleted (RESTRICT). Changing a role's permissions or scope, or a member's
-- custom role, is announced on "titan_changes" so every instance's auth cache drops the answer.
CREATE TABLE "custom_roles" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "name" text NOT NULL,
  "permissions" text[] DEFAULT '{}'::text[] NOT NULL,
  "chat_group_ids" bigint[],
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "custom_roles_business_name_key" ON "custom_roles" ("business_id", lower("name"));--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "custom_role_id" bigint REFERENCES "custom_roles"("id") ON DELETE restrict;--> statement-breakpoint
CREATE INDEX "memberships_custom_role_idx" ON "memberships" ("custom_role_id") WHERE "custom_role_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "role" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "custom_role_id" bigint REFERENCES "custom_roles"("id") ON DELETE restrict;--> statement-breakpoint
CREATE INDEX "api_keys_custom_role_idx" ON "api_keys" ("custom_role_id") WHERE "custom_role_id" IS NOT NULL;--> statement-breakpoint
DROP TRIGGER IF EXISTS memberships_notify_auth ON memberships;--> statement-breakpoint
CREATE TRIGGER memberships_notify_auth AFTER UPDATE OF role, custom_role_id, business_id, user_id OR DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION titan_notify_auth_change();--> statement-breakpoint
CREATE TRIGGER custom_roles_notify_auth AFTER UPDATE OF permissions, chat_group_ids, business_id OR DELETE ON custom_roles
  FOR EACH ROW EXECUTE FUNCTION titan_notify_auth_change();
