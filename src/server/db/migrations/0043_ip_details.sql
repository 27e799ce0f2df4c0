-- What the network data says of an address beyond the event's own columns (city, coordinates, operator),
-- stored once per distinct value rather than in every event's signals (about 40 bytes an event, issue 28).
CREATE TABLE "ip_details" (
	"digest" "bytea" PRIMARY KEY NOT NULL,
	"details" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "ip_details" "bytea";