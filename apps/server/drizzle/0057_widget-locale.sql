-- The widget in the visitor's language (issue 30): a chat group's language, used when neither the
-- visitor's page nor their browser names a shipped locale, and its text overrides by locale then key
-- (ICU MessageFormat source: {"es": {"placeholder": "Escríbenos…"}}), checked by contracts.
ALTER TABLE "chat_groups" ADD COLUMN "locale" text DEFAULT 'en' NOT NULL;
--> statement-breakpoint
ALTER TABLE "chat_groups" ADD COLUMN "strings" jsonb DEFAULT '{}'::jsonb NOT NULL;
