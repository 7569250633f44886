CREATE TABLE `receipt_emails` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`ticket_id` text NOT NULL,
	`to_address` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	`queued_at` integer NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`sending_at` integer,
	`round` integer DEFAULT 0 NOT NULL,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`html_body` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `receipt_emails_queue` ON `receipt_emails` (`state`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `receipt_emails_ticket` ON `receipt_emails` (`ticket_id`);--> statement-breakpoint
CREATE INDEX `receipt_emails_to` ON `receipt_emails` ("to_address" COLLATE NOCASE);--> statement-breakpoint
CREATE INDEX `receipt_emails_created` ON `receipt_emails` (`created_at`);--> statement-breakpoint
CREATE TABLE `receipt_settings` (
	`id` text PRIMARY KEY NOT NULL,
	`v` integer NOT NULL,
	`doc` text NOT NULL,
	`smtp_password` text
);
