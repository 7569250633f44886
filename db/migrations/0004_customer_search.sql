ALTER TABLE `customers` ADD `search_text` text;--> statement-breakpoint
UPDATE `customers` SET `search_text` = casefold(
  coalesce(`first_name`, '') || char(10) || coalesce(`last_name`, '') || char(10) || coalesce(`company_name`, '') || char(10) ||
  coalesce(`company_vat_id`, '') || char(10) || coalesce(`company_tax_id`, '') || char(10) || coalesce(`note`, '')
);
