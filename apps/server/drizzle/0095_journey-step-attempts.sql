-- A journey step taken by a worker and failing for a reason Titan cannot explain (not a refusal such
-- as missing consent) was taken again after its lease, forever, while the customer's path showed
-- it pending with no reason (a domain's sealed DKIM key that no longer opens did this). Each claim
-- now counts an attempt; after STEP_ATTEMPTS (journeys.engine.ts) such a step fails with the error
-- named on the path and the run ends failed. A wait's deferral (quiet hours) starts the count again.
ALTER TABLE "journey_steps" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;
