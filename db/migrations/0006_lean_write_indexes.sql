DROP INDEX `print_jobs_queue`;--> statement-breakpoint
DROP INDEX `tickets_close_date`;--> statement-breakpoint
DROP INDEX `tickets_external_id`;--> statement-breakpoint
DROP INDEX `tickets_customer_card`;--> statement-breakpoint
DROP INDEX `tickets_customer`;--> statement-breakpoint
DROP INDEX `tickets_close_number`;--> statement-breakpoint
CREATE INDEX `tickets_close_date` ON `tickets` (`close_date`) WHERE close_date IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tickets_external_id` ON `tickets` (`external_id`) WHERE external_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tickets_customer_card` ON `tickets` (`customer_card_serial_number`) WHERE customer_card_serial_number IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tickets_customer` ON `tickets` (`customer_id`) WHERE customer_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tickets_close_number` ON `tickets` (`close_fiscal_name`,`close_number`) WHERE close_fiscal_name IS NOT NULL;