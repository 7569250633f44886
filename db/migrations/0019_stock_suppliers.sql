ALTER TABLE `stock_transfers` ADD `supplier_name` text;--> statement-breakpoint
CREATE INDEX `stock_transfers_supplier` ON `stock_transfers` (`supplier_name`) WHERE supplier_name IS NOT NULL;--> statement-breakpoint
-- Issue 28, hand-written: documents stored before stock value answer its new fields as unknown (null), as new ones do when nothing is known.
UPDATE `stock_transfers` SET `doc` = json_set(`doc`, '$.supplier', json('null'), '$.totalCost', json('null')) WHERE json_type(`doc`, '$.totalCost') IS NULL;
--> statement-breakpoint
UPDATE `plus` SET `doc` = json_set(`doc`, '$.unit', json('null')) WHERE json_type(`doc`, '$.unit') IS NULL;
