CREATE TABLE "conversation_counts" (
	"business_id" bigint NOT NULL,
	"status" text NOT NULL,
	"is_read" boolean NOT NULL,
	"business_replied" boolean NOT NULL,
	"channel" text NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "conversation_counts_business_id_status_is_read_business_replied_channel_pk" PRIMARY KEY("business_id","status","is_read","business_replied","channel")
);
