ALTER TABLE `devices` ADD `register_key_hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `devices_register_key` ON `devices` (`register_key_hash`) WHERE register_key_hash IS NOT NULL;