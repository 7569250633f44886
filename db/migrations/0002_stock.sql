CREATE TABLE `stock_taking_items` (
	`stock_taking_id` text NOT NULL,
	`line` integer NOT NULL,
	`plu_code` integer NOT NULL,
	`plu_stock_name` text NOT NULL,
	PRIMARY KEY(`stock_taking_id`, `line`),
	FOREIGN KEY (`stock_taking_id`) REFERENCES `stock_takings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `stock_taking_items_plu` ON `stock_taking_items` (`plu_code`,`plu_stock_name`);--> statement-breakpoint
CREATE INDEX `stock_taking_items_stock` ON `stock_taking_items` (`plu_stock_name`);--> statement-breakpoint
CREATE TABLE `stock_takings` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`is_closed` integer NOT NULL,
	`created_at` integer NOT NULL,
	`created_by_user_name` text,
	`closed_at` integer,
	`closed_by_user_name` text,
	`currency_label` text
);
--> statement-breakpoint
CREATE INDEX `stock_takings_created` ON `stock_takings` (`created_at`);--> statement-breakpoint
CREATE INDEX `stock_takings_closed` ON `stock_takings` (`closed_at`);--> statement-breakpoint
CREATE TABLE `stock_transfer_items` (
	`transfer_id` text NOT NULL,
	`line` integer NOT NULL,
	`plu_code` integer NOT NULL,
	`plu_stock_name` text NOT NULL,
	PRIMARY KEY(`transfer_id`, `line`),
	FOREIGN KEY (`transfer_id`) REFERENCES `stock_transfers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `stock_transfer_items_plu` ON `stock_transfer_items` (`plu_code`,`plu_stock_name`);--> statement-breakpoint
CREATE INDEX `stock_transfer_items_stock` ON `stock_transfer_items` (`plu_stock_name`);--> statement-breakpoint
CREATE TABLE `stock_transfers` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`document_number` text NOT NULL,
	`type` text NOT NULL,
	`created_at` integer NOT NULL,
	`source_stock_name` text,
	`target_stock_name` text,
	`ticket_id` text,
	`stock_taking_id` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `stock_transfers_document_number` ON `stock_transfers` (`document_number`);--> statement-breakpoint
CREATE INDEX `stock_transfers_type_created` ON `stock_transfers` (`type`,`created_at`);--> statement-breakpoint
CREATE INDEX `stock_transfers_created` ON `stock_transfers` (`created_at`);--> statement-breakpoint
CREATE INDEX `stock_transfers_ticket` ON `stock_transfers` (`ticket_id`);--> statement-breakpoint
CREATE INDEX `stock_transfers_stock_taking` ON `stock_transfers` (`stock_taking_id`);--> statement-breakpoint
CREATE INDEX `stock_transfers_source` ON `stock_transfers` (`source_stock_name`);--> statement-breakpoint
CREATE INDEX `stock_transfers_target` ON `stock_transfers` (`target_stock_name`);