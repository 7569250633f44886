CREATE TABLE `audit_events` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`at` integer NOT NULL,
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`user_name` text NOT NULL,
	`ticket_id` text NOT NULL,
	`amount` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_events_day` ON `audit_events` (`day`,`user_name`);--> statement-breakpoint
CREATE INDEX `audit_events_ticket` ON `audit_events` (`ticket_id`);--> statement-breakpoint
CREATE INDEX `audit_events_at` ON `audit_events` (`at`);