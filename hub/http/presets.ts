/**
 * Rights presets a shop starts a user from (the manager's page offers them; the README's "Rights"
 * table shows them, checked by a test). Least privilege: each holds what its job needs and no more.
 */
import { RIGHTS, type Right } from './rights.js';

export interface Preset {
  name: string;
  purpose: string;
  rights: readonly Right[];
}

const WAITER: readonly Right[] = ['TicketCreate', 'TicketUpdate', 'TicketRename', 'TicketSetCustomer', 'TicketPrintPreliminary', 'TicketHandover', 'TicketTakeover'];

export const PRESETS: readonly Preset[] = [
  {
    name: 'Waiter',
    purpose: 'Opens tables and adds to their own tickets; sees open tickets and their own sales, the catalog, never customers or users.',
    rights: WAITER,
  },
  {
    name: 'Cashier',
    purpose: "A waiter who also takes payment: closes any ticket, gives discounts, takes items back (Storno), prints X reports, runs the register's shift (float, cash in and out, count).",
    rights: [...WAITER, 'TicketUpdateAny', 'TicketSetDiscount', 'TicketClose', 'TicketDelete', 'Storno', 'FiscalReport', 'CashCount', 'CashMovement'],
  },
  {
    name: 'Manager',
    purpose: 'Runs the shop: catalog, stock, customers, devices, users, reports, backups; every right but the monitoring one.',
    rights: RIGHTS.filter((r) => r !== 'Metrics'),
  },
  {
    name: 'Kitchen display',
    purpose: "The pass or a kitchen screen logged in by a user (a paired display needs no user): moves orders, reads nothing else.",
    rights: ['OrderProcess'],
  },
];
