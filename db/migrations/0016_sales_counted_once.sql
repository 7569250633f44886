ALTER TABLE `tickets` ADD `sales_counted` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `tickets_uncounted` ON `tickets` (`id`) WHERE is_closed = 1 AND sales_counted = 0;--> statement-breakpoint
-- Issue 28: the running sales totals are rebuilt from the closed tickets. The backfill of 0013's
-- version counted again every ticket whose closeDate was earlier than its first start (the demo's
-- back-dated tickets, a hub whose clock was ahead at the upgrade), so the totals a store holds may
-- count some tickets twice. Every closed ticket is left uncounted (the column's default) and every
-- figure a closed ticket adds is dropped; the hub's backfill then counts each closed ticket exactly
-- once at its next start (hub/reports/store.ts). Voids cannot be rebuilt from the tickets (a storno
-- leaves no trace on the ticket it lowered, a deleted ticket is gone); they were recorded once, by the
-- write that made them, never by the backfill, so they are kept as they are, rows and labels.
CREATE TABLE `sales_totals_voids` AS SELECT `dimension`, `bucket`, `key`, `label`, `void_quantity`, `voids` FROM `sales_totals` WHERE `void_quantity` <> 0 OR `voids` <> 0;--> statement-breakpoint
DELETE FROM `sales_totals`;--> statement-breakpoint
INSERT INTO `sales_totals` (`dimension`, `bucket`, `key`, `label`, `void_quantity`, `voids`) SELECT `dimension`, `bucket`, `key`, `label`, `void_quantity`, `voids` FROM `sales_totals_voids`;--> statement-breakpoint
DROP TABLE `sales_totals_voids`;--> statement-breakpoint
DELETE FROM `meta` WHERE `key` IN ('reports.since', 'reports.backfill');
