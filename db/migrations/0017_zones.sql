CREATE TABLE `zones` (
	`name` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`is_active` integer NOT NULL,
	`sort_order` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `zones_order` ON `zones` (`sort_order`,`name`);