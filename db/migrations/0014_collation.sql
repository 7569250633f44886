ALTER TABLE `customers` ADD `full_name_sk` text;--> statement-breakpoint
ALTER TABLE `customers` ADD `last_name_sk` text;--> statement-breakpoint
CREATE INDEX `customers_full_name_sk` ON `customers` (`full_name_sk`);--> statement-breakpoint
CREATE INDEX `customers_last_name_sk` ON `customers` (`last_name_sk`);--> statement-breakpoint
ALTER TABLE `plus` ADD `name_sk` text;--> statement-breakpoint
CREATE INDEX `plus_name_sk` ON `plus` (`name_sk`);--> statement-breakpoint
ALTER TABLE `tickets` ADD `name_sk` text;--> statement-breakpoint
ALTER TABLE `tickets` ADD `table_name_sk` text;--> statement-breakpoint
CREATE INDEX `tickets_closed_table_sk` ON `tickets` (`is_closed`,`table_name_sk`);--> statement-breakpoint
CREATE INDEX `tickets_closed_name_sk` ON `tickets` (`is_closed`,`name_sk`);--> statement-breakpoint
UPDATE `customers` SET `search_text` = casefold(
  coalesce(`first_name`, '') || char(10) || coalesce(`last_name`, '') || char(10) || coalesce(`company_name`, '') || char(10) ||
  coalesce(`company_vat_id`, '') || char(10) || coalesce(`company_tax_id`, '') || char(10) || coalesce(`note`, '') ||
  coalesce((SELECT char(10) || group_concat(`serial_number`, char(10)) FROM `customer_cards` WHERE `customer_id` = `customers`.`id`), '')
);
