CREATE TABLE `cash_counts` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`fiscal_name` text NOT NULL,
	`day_number` integer NOT NULL,
	`counted_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `cash_counts_day` ON `cash_counts` (`fiscal_name`,`day_number`);--> statement-breakpoint
CREATE INDEX `cash_counts_counted` ON `cash_counts` (`counted_at`);--> statement-breakpoint
CREATE TABLE `sales_totals` (
	`dimension` text NOT NULL,
	`bucket` text NOT NULL,
	`key` text NOT NULL,
	`label` text,
	`tickets` integer DEFAULT 0 NOT NULL,
	`quantity` integer DEFAULT 0 NOT NULL,
	`gross` integer DEFAULT 0 NOT NULL,
	`discounts` integer DEFAULT 0 NOT NULL,
	`returns_quantity` integer DEFAULT 0 NOT NULL,
	`returns` integer DEFAULT 0 NOT NULL,
	`net` integer DEFAULT 0 NOT NULL,
	`vat` integer DEFAULT 0 NOT NULL,
	`void_quantity` integer DEFAULT 0 NOT NULL,
	`voids` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`dimension`, `bucket`, `key`)
) WITHOUT ROWID;
