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
--> statement-breakpoint
CREATE TABLE `fiscal_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`fiscal_name` text NOT NULL,
	`kind` text NOT NULL,
	`number` integer NOT NULL,
	`taken_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `fiscal_reports_day` ON `fiscal_reports` (`fiscal_name`,`number`);--> statement-breakpoint
CREATE INDEX `fiscal_reports_taken` ON `fiscal_reports` (`taken_at`);--> statement-breakpoint
CREATE TABLE `shift_sales` (
	`shift_id` text NOT NULL,
	`payment_type_number` integer NOT NULL,
	`tickets` integer DEFAULT 0 NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`shift_id`, `payment_type_number`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `shifts` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`device_name` text NOT NULL,
	`is_open` integer NOT NULL,
	`opened_at` integer NOT NULL,
	`closed_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shifts_one_open` ON `shifts` (`device_name`) WHERE is_open = 1;--> statement-breakpoint
CREATE INDEX `shifts_device_opened` ON `shifts` (`device_name`,`opened_at`);--> statement-breakpoint
CREATE INDEX `shifts_opened` ON `shifts` (`opened_at`);--> statement-breakpoint
CREATE INDEX `shifts_closed` ON `shifts` (`closed_at`) WHERE closed_at IS NOT NULL;--> statement-breakpoint
ALTER TABLE `cash_counts` ADD `shift_id` text;--> statement-breakpoint
CREATE INDEX `cash_counts_shift` ON `cash_counts` (`shift_id`) WHERE shift_id IS NOT NULL;
--> statement-breakpoint
CREATE TABLE `audit_events` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`at` integer NOT NULL,
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`user_name` text NOT NULL,
	`ticket_id` text NOT NULL,
	`amount` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_events_day` ON `audit_events` (`day`,`user_name`);--> statement-breakpoint
CREATE INDEX `audit_events_ticket` ON `audit_events` (`ticket_id`);--> statement-breakpoint
CREATE INDEX `audit_events_at` ON `audit_events` (`at`);
