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