/**
 * The orders resource as the print queue reads and marks it (hub/printing/store.ts KitchenOrders):
 * a kitchen order's document, and its job's state shown in its `print` field (through putStored, so
 * the change log tells the registers). The composition hands it to printing, which imports no resource.
 */
import { getStored, getStoredRow, putStored } from '../../engine/repo.js';
import type { KitchenOrders } from '../../printing/store.js';
import { orders } from './resource.js';

export const kitchenOrders: KitchenOrders = {
  get: (db, id) => getStored(db, orders, id)?.doc,
  showJob(db, job, at) {
    if (!job.refId) return;
    // Read with its columns, so the write sets only what changes (the version and the document), not
    // every column and the orders' indexes over them: a job changes state twice or more per order.
    const stored = getStoredRow(db, orders, job.refId);
    if (!stored) return;
    const print = { state: job.state, attempts: job.attempts, lastError: job.lastError, printedAt: job.printedAt === null ? null : new Date(job.printedAt).toISOString() };
    if (JSON.stringify(stored.doc.print) === JSON.stringify(print)) return;
    putStored(db, orders, job.refId, { ...stored.doc, print }, stored.v + 1, at, stored);
  },
};
