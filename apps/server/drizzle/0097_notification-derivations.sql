-- One instance derives the notifications of a message change (issue 29): every instance hears every
-- change on the feed, and each used to derive it (read the message, its conversation, the members'
-- rights and preferences, insert — the unique cause key kept one notification). Now an instance
-- claims the changes' seqs (change_log.seq) before deriving them: a row per change, leased while it
-- is derived and marked done after; an instance that finds the seq claimed passes it by. A claim
-- whose lease ran out undone (the instance died mid-batch) is taken again by the next catch-up or
-- the minute's sweep. Rows go with their change_log rows (pruned after a day).
CREATE TABLE "notification_derivations" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "notification_derivations_undone_idx" ON "notification_derivations" USING btree ("lease_until") WHERE "notification_derivations"."done_at" IS NULL;
