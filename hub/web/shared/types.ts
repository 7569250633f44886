/**
 * The shapes the hub answers, named as the pages use them. Every one is taken from the wire types
 * generated from the hub's OpenAPI document (./api-types.ts, `npm run web:types`), so a field the
 * hub renames or drops is a compile error here rather than an `undefined` on a screen.
 */
import type { components } from './api-types.js';

type Schemas = components['schemas'];

export type Ticket = Schemas['Ticket'];
export type TicketItem = Ticket['items'][number];
export type Order = Schemas['Order'];
export type OrderItem = Order['items'][number];
export type OrderState = Order['state'];
export type PaymentType = Schemas['PaymentType'];
export type Device = Schemas['Device'];
export type OrderEndpoint = Schemas['OrderEndpoint'];
/** A printer's status as GET /api/orderendpoints/{name}/status and the health answer report it. */
export type PrinterStatus = Schemas['PrinterStatus'];
export type FiscalDevice = Schemas['FiscalDevice'];
export type Stock = Schemas['Stock'];
export type Plu = Schemas['Plu'];
/** A product category: its name, colour and place on a register's menu grid. */
export type Category = Schemas['Category'];
export type Money = Plu['unitPrice'];
export type PluRef = Plu['receipt'][number]['pluId'];
export type Modifier = Schemas['Modifier'];
export type ModifierOption = Modifier['options'][number];
export type StockTransfer = Schemas['StockTransfer'];
export type StockTaking = Schemas['StockTaking'];
export type Customer = Schemas['Customer'];
export type Card = Customer['cards'][number];
export type HubUser = Schemas['User'];
export type Numbering = Schemas['StockTransferNumbering'];
/** A zone of the floor plan with its tables (issue 29). */
export type Zone = Schemas['Zone'];
/** A register's cash drawer session: its float, what it took, cash put in and taken out, its closing count. */
export type Shift = Schemas['Shift'];
export type CashMovement = Shift['movements'][number];
export type Health = Schemas['Health'];
/** A change-log entry, as GET /api/changes lists it and GET /api/events streams it. */
export type Change = Schemas['Change'];
/** An error answer (application/problem+json). */
export type Problem = Schemas['ProblemDetails'];
export type MemberError = NonNullable<Problem['errors']>[number];

/** The answer of POST /api/auth and of a kitchen display's pairing: the manager's page and the display both keep one. */
export type Session = Schemas['SessionTokens'];
export type User = Session['user'];
