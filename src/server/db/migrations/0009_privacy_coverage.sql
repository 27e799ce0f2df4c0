ALTER TABLE "accounts" ADD COLUMN "device_mark" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "request_id" text GENERATED ALWAYS AS (payload->'event'->>'requestId') STORED;--> statement-breakpoint
CREATE INDEX "accounts_device_mark_created" ON "accounts" USING btree ("device_mark","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_request" ON "webhook_deliveries" USING btree ("request_id");