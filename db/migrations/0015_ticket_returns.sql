ALTER TABLE `tickets` ADD `return_of` text;--> statement-breakpoint
CREATE INDEX `tickets_return_of` ON `tickets` (`return_of`) WHERE return_of IS NOT NULL;