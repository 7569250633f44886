/** Every resource the generic engine serves. Adding one is adding a line here. */
import type { ResourceDef } from './engine/define.js';
import { customers } from './customers/resource.js';
import { categories } from './categories/resource.js';
import { devices } from './devices/resource.js';
import { fiscalDevices } from './fiscaldevices/resource.js';
import { modifiers } from './modifiers/resource.js';
import { numberings } from './numberings/resource.js';
import { orderEndpoints } from './orderendpoints/resource.js';
import { paymentTypes } from './paymenttypes/resource.js';
import { plus } from './plus/resource.js';
import { stocks } from './stocks/resource.js';
import { users } from './users/resource.js';
import { orders } from './orders/resource.js';
import { tickets } from './tickets/resource.js';
import { stockTransfers } from './stocktransfers/resource.js';
import { stockTakings } from './stocktakings/resource.js';
import { receiptEmails } from './receipts/resource.js';
import { cashCounts } from './cashcounts/resource.js';
import { zones } from './zones/resource.js';
import { fiscalReports } from '../reports/fiscal-reports.js';
import { auditEvents } from '../reports/audit.js';
import { shifts } from './shifts/resource.js';

export const RESOURCES: readonly ResourceDef[] = [
  customers,
  numberings,
  devices,
  modifiers,
  orderEndpoints,
  stocks,
  paymentTypes,
  categories,
  plus,
  fiscalDevices,
  users,
  tickets,
  orders,
  stockTransfers,
  stockTakings,
  receiptEmails,
  cashCounts,
  zones,
  shifts,
  fiscalReports,
  auditEvents,
];

export { zones, cashCounts, shifts, fiscalReports, auditEvents, categories, receiptEmails, stockTakings, stockTransfers, orders, tickets, customers, devices, fiscalDevices, modifiers, numberings, orderEndpoints, paymentTypes, plus, stocks, users };
