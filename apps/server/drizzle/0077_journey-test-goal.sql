-- Journeys (issue 32): a goal — an event within N days of entering, counted as the journey's
-- conversion — test runs, which take a chosen customer through the newest version with a fast
-- clock (their waits last `clock_speed` times less), and segment triggers (below).
ALTER TABLE "journeys" ADD COLUMN "goal" jsonb;
--> statement-breakpoint
ALTER TABLE "journey_runs" ADD COLUMN "clock_speed" integer;
--> statement-breakpoint
-- Segment triggers: who is in a journey's segment as of its last scan. A customer found in the
-- segment and not here entered it (a row and the journey's own event, in one transaction); one
-- here and no longer in the segment left it (the row goes, so coming back enters again).
CREATE TABLE "journey_segment_members" (
  "journey_id" bigint NOT NULL REFERENCES "journeys"("id") ON DELETE cascade,
  "customer_id" bigint NOT NULL REFERENCES "customers"("id") ON DELETE cascade,
  "business_id" bigint NOT NULL,
  "entered_at" timestamp with time zone NOT NULL,
  CONSTRAINT "journey_segment_members_pkey" PRIMARY KEY ("journey_id", "customer_id")
);
