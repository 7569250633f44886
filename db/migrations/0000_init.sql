CREATE TABLE `changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`resource` text NOT NULL,
	`key` text NOT NULL,
	`op` text NOT NULL,
	`v` integer NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `changes_at` ON `changes` (`at`);--> statement-breakpoint
CREATE TABLE `customer_cards` (
	`serial_number` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `customer_cards_customer` ON `customer_cards` (`customer_id`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`external_id` text,
	`is_active` integer NOT NULL,
	`credit_rate` integer NOT NULL,
	`discount_rate` integer NOT NULL,
	`activation_time` integer,
	`expiration_time` integer,
	`first_name` text,
	`last_name` text,
	`full_name` text,
	`company_name` text,
	`company_vat_id` text,
	`company_tax_id` text,
	`note` text
);
--> statement-breakpoint
CREATE INDEX `customers_external_id` ON `customers` (`external_id`);--> statement-breakpoint
CREATE INDEX `customers_last_name` ON `customers` (`last_name`);--> statement-breakpoint
CREATE TABLE `devices` (
	`name` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`is_active` integer NOT NULL,
	`env_name` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `fiscal_devices` (
	`name` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`is_active` integer NOT NULL,
	`driver` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`user_id` text NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`status` integer NOT NULL,
	`headers` text NOT NULL,
	`body` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_created` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `modifiers` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`name` text
);
--> statement-breakpoint
CREATE INDEX `modifiers_name` ON `modifiers` (`name`);--> statement-breakpoint
CREATE TABLE `order_endpoints` (
	`name` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`is_active` integer NOT NULL,
	`type` text NOT NULL,
	`address` text
);
--> statement-breakpoint
CREATE TABLE `payment_types` (
	`number` integer PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`is_active` integer NOT NULL,
	`category` text NOT NULL,
	`is_changeable` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `plus` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`code` integer NOT NULL,
	`stock_name` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`is_active` integer NOT NULL,
	`stock_quantity` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plus_stock_code` ON `plus` (`stock_name`,`code`);--> statement-breakpoint
CREATE INDEX `plus_name` ON `plus` (`name`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`refresh_hash` text NOT NULL,
	`user_id` text NOT NULL,
	`device_name` text NOT NULL,
	`env_name` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`refresh_expires_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_refresh` ON `sessions` (`refresh_hash`);--> statement-breakpoint
CREATE INDEX `sessions_device` ON `sessions` (`device_name`,`revoked_at`);--> statement-breakpoint
CREATE TABLE `stock_transfer_numberings` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`is_active` integer NOT NULL,
	`type` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `numberings_one_active_per_type` ON `stock_transfer_numberings` (`type`) WHERE "stock_transfer_numberings"."is_active" = 1;--> statement-breakpoint
CREATE TABLE `stocks` (
	`name` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`user_name` text NOT NULL,
	`is_active` integer NOT NULL,
	`password_hash` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_user_name` ON `users` ("user_name" COLLATE NOCASE);