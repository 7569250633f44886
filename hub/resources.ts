/** Every resource the generic engine serves. Adding one is adding a line here. */
import type { ResourceDef } from './engine/define.js';
import { customers } from './resources/customers/resource.js';
import { categories } from './resources/categories/resource.js';
import { devices } from './resources/devices/resource.js';
import { fiscalDevices } from './resources/fiscaldevices/resource.js';
import { modifiers } from './resources/modifiers/resource.js';
import { numberings } from './resources/numberings/resource.js';
import { orderEndpoints } from './resources/orderendpoints/resource.js';
import { paymentTypes } from './resources/paymenttypes/resource.js';
import { plus } from './resources/plus/resource.js';
import { stocks } from './resources/stocks/resource.js';
import { users } from './resources/users/resource.js';
import { orders } from './resources/orders/resource.js';
import { tickets } from './resources/tickets/resource.js';
import { stockTransfers } from './resources/stocktransfers/resource.js';
import { stockTakings } from './resources/stocktakings/resource.js';
import { receiptEmails } from './mail/resource.js';
import { cashCounts } from './resources/cashcounts/resource.js';
import { zones } from './resources/zones/resource.js';
import { fiscalReports } from './reports/fiscal-reports.js';
import { auditEvents } from './reports/audit.js';
import { shifts } from './resources/shifts/resource.js';

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
