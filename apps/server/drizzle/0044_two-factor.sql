-- Two-factor sign-in: TOTP (the secret sealed with APP_SECRET, the last accepted time step kept so a
-- code cannot be replayed within its window), one-time recovery codes (hashed), passkeys (WebAuthn
-- credentials), the short-lived challenges of a sign-in's second step and of WebAuthn ceremonies,
-- a business's demand for 2FA, and the session's note that its user must enrol before anything else.
ALTER TABLE "users" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_pending_secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_enabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_last_step" bigint;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "mfa_enrolment_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "amr" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "require_2fa" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE TABLE "user_recovery_codes" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "user_id" bigint NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "code_hash" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "used_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "user_recovery_codes_user_idx" ON "user_recovery_codes" ("user_id");--> statement-breakpoint
CREATE TABLE "webauthn_credentials" (
  "id" text PRIMARY KEY NOT NULL,
  "user_id" bigint NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "public_key" text NOT NULL,
  "counter" bigint DEFAULT 0 NOT NULL,
  "transports" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "name" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_used_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "webauthn_credentials_user_idx" ON "webauthn_credentials" ("user_id");--> statement-breakpoint
CREATE TABLE "auth_challenges" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "token_hash" text NOT NULL,
  "purpose" text NOT NULL,
  "user_id" bigint REFERENCES "users"("id") ON DELETE cascade,
  "challenge" text,
  "attempts" integer DEFAULT 0 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "used_at" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "auth_challenges_token_key" ON "auth_challenges" ("token_hash");
