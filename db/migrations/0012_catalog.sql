CREATE TABLE `categories` (
	`name` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`is_active` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `plus` ADD `category` text;--> statement-breakpoint
ALTER TABLE `plus` ADD `barcode` text;--> statement-breakpoint
ALTER TABLE `plus` ADD `minimum_quantity` integer;--> statement-breakpoint
CREATE INDEX `plus_category` ON `plus` (`category`) WHERE category IS NOT NULL;--> statement-breakpoint
CREATE INDEX `plus_barcode` ON `plus` (`barcode`) WHERE barcode IS NOT NULL;