CREATE TABLE "return_gaps" (
	"bucket" integer PRIMARY KEY NOT NULL,
	"comebacks" real DEFAULT 0 NOT NULL
);
