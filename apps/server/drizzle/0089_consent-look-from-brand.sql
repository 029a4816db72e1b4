-- One look for the business (issue 31): the public consent pages (preference centre, opt-in
-- confirmation) take the email brand's logo and primary colour, set on the Brand screen, instead of
-- a second setting of their own. What a business had set for its pages moves into its brand: a
-- business without a brand gets one made of the defaults and its page look; one with a brand keeps
-- it, gaining the page's logo where the brand had none.
INSERT INTO "email_brands" ("business_id", "logo_url", "primary_color", "text_color", "font_family", "footer_address", "updated_at")
SELECT "business_id", "logo_url", lower(coalesce("accent_color", '#2563eb')), '#1f2937', 'Arial', '', "updated_at"
FROM "consent_pages"
WHERE "logo_url" IS NOT NULL OR "accent_color" IS NOT NULL
ON CONFLICT ("business_id") DO UPDATE
  SET "logo_url" = coalesce("email_brands"."logo_url", excluded."logo_url");
--> statement-breakpoint
DROP TABLE "consent_pages";
