CREATE TABLE "last_seen_shares" (
	"bucket" integer PRIMARY KEY NOT NULL,
	"visitors" real DEFAULT 0 NOT NULL
);
