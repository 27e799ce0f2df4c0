CREATE INDEX "events_bot_created" ON "events" USING btree ("created_at","request_id") WHERE (signals->'bot'->>'result') = 'bad';--> statement-breakpoint
CREATE INDEX "events_tampering_created" ON "events" USING btree ("created_at","request_id") WHERE (signals->'tampering'->>'result') = 'true';--> statement-breakpoint
CREATE INDEX "events_vpn_created" ON "events" USING btree ("created_at","request_id") WHERE (signals->'vpn'->>'result') = 'true';--> statement-breakpoint
CREATE INDEX "events_tor_created" ON "events" USING btree ("created_at","request_id") WHERE (signals->'tor'->>'result') = 'true';--> statement-breakpoint
CREATE INDEX "events_datacenter_created" ON "events" USING btree ("created_at","request_id") WHERE (signals->'datacenter'->>'result') = 'true';--> statement-breakpoint
CREATE INDEX "events_proxy_created" ON "events" USING btree ("created_at","request_id") WHERE (signals->'proxy'->>'result') = 'true';--> statement-breakpoint
CREATE INDEX "events_virtual_machine_created" ON "events" USING btree ("created_at","request_id") WHERE (signals->'virtualMachine'->>'result') = 'true';--> statement-breakpoint
CREATE INDEX "events_private_mode_created" ON "events" USING btree ("created_at","request_id") WHERE (signals->'privateMode'->>'result') = 'true';