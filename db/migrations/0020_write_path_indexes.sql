DROP INDEX `changes_at`;--> statement-breakpoint
DROP INDEX `orders_endpoint_state`;--> statement-breakpoint
DROP INDEX `orders_state`;--> statement-breakpoint
CREATE INDEX `orders_state_created` ON `orders` (`state`,`created_at`,`order_endpoint_name`);--> statement-breakpoint
DROP INDEX `ticket_items_plu`;--> statement-breakpoint
DROP INDEX `ticket_items_stock`;