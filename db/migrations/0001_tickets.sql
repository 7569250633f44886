CREATE TABLE `fiscal_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`ticket_id` text NOT NULL,
	`fiscal_name` text NOT NULL,
	`state` text NOT NULL,
	`request` text NOT NULL,
	`last_number_before` integer,
	`result` text,
	`error` text,
	`created_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `fiscal_jobs_ticket` ON `fiscal_jobs` (`ticket_id`,`state`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`ticket_id` text NOT NULL,
	`order_endpoint_name` text NOT NULL,
	`kind` text NOT NULL,
	`state` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `orders_ticket` ON `orders` (`ticket_id`);--> statement-breakpoint
CREATE INDEX `orders_endpoint_state` ON `orders` (`order_endpoint_name`,`state`);--> statement-breakpoint
CREATE INDEX `orders_state` ON `orders` (`state`);--> statement-breakpoint
CREATE TABLE `print_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`endpoint_name` text NOT NULL,
	`kind` text NOT NULL,
	`ref_id` text,
	`payload` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`printed_at` integer
);
--> statement-breakpoint
CREATE INDEX `print_jobs_queue` ON `print_jobs` (`endpoint_name`,`state`,`created_at`);--> statement-breakpoint
CREATE INDEX `print_jobs_ref` ON `print_jobs` (`ref_id`);--> statement-breakpoint
CREATE TABLE `ticket_items` (
	`ticket_id` text NOT NULL,
	`item_id` integer NOT NULL,
	`plu_code` integer NOT NULL,
	`plu_stock_name` text NOT NULL,
	PRIMARY KEY(`ticket_id`, `item_id`),
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ticket_items_plu` ON `ticket_items` (`plu_code`,`plu_stock_name`);--> statement-breakpoint
CREATE INDEX `ticket_items_stock` ON `ticket_items` (`plu_stock_name`);--> statement-breakpoint
CREATE TABLE `tickets` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`is_closed` integer NOT NULL,
	`external_id` text,
	`name` text,
	`purchase_type` text NOT NULL,
	`origin_device_name` text NOT NULL,
	`device_name` text NOT NULL,
	`currency_label` text,
	`discount_rate` integer NOT NULL,
	`open_date` integer NOT NULL,
	`close_date` integer,
	`customer_id` text,
	`customer_card_serial_number` text,
	`employee_user_name` text,
	`table_name` text,
	`zone_name` text,
	`close_device_name` text,
	`close_fiscal_name` text,
	`close_number` integer,
	`close_daily_sales_report_number` integer,
	`close_fiscal_memory_serial_number` text,
	`has_discount` integer NOT NULL,
	`has_negative_item` integer NOT NULL,
	`has_returned_item` integer NOT NULL,
	`total_amount` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tickets_closed_table` ON `tickets` (`is_closed`,`table_name`);--> statement-breakpoint
CREATE INDEX `tickets_device_close` ON `tickets` (`device_name`,`close_date`);--> statement-breakpoint
CREATE INDEX `tickets_closed_open_date` ON `tickets` (`is_closed`,`open_date`);--> statement-breakpoint
CREATE INDEX `tickets_close_date` ON `tickets` (`close_date`);--> statement-breakpoint
CREATE INDEX `tickets_open_date` ON `tickets` (`open_date`);--> statement-breakpoint
CREATE INDEX `tickets_employee` ON `tickets` (`employee_user_name`,`is_closed`);--> statement-breakpoint
CREATE INDEX `tickets_external_id` ON `tickets` (`external_id`);--> statement-breakpoint
CREATE INDEX `tickets_customer_card` ON `tickets` (`customer_card_serial_number`);--> statement-breakpoint
CREATE INDEX `tickets_customer` ON `tickets` (`customer_id`);--> statement-breakpoint
CREATE INDEX `tickets_close_number` ON `tickets` (`close_fiscal_name`,`close_number`);--> statement-breakpoint
CREATE INDEX `tickets_zone` ON `tickets` (`zone_name`,`is_closed`);