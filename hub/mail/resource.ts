import { z } from 'zod';
import { defineResource } from '../engine/define.js';
import { EMAIL_STATES, EMAILS_RESOURCE } from './outbox-store.js';

/**
 * E-mail receipts (CONTRACT §11): GET /api/receipts/emails. Made only by closes (hub/mail/outbox-store.ts
 * writes the rows); the engine serves the list, the filters and GET one.
 */
export const receiptEmails = defineResource({
  name: EMAILS_RESOURCE,
  title: 'ReceiptEmail',
  table: 'receipt_emails',
  key: { field: 'id', column: 'id', type: 'string', schema: z.string() },
  schema: z.object({ id: z.string().optional() }),
  readOnly: {
    ticketId: z.string(),
    to: z.string(),
    state: z.enum(EMAIL_STATES),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    sentAt: z.string().nullable(),
  },
  columns: (d) => ({
    ticket_id: d.ticketId,
    to_address: d.to,
    state: d.state,
    attempts: d.attempts,
    created_at: Date.parse(d.createdAt),
    sent_at: d.sentAt ? Date.parse(d.sentAt) : null,
  }),
  filters: {
    id: { type: 'string', column: 'id' },
    ticketId: { type: 'string', column: 'ticket_id' },
    to: { type: 'string', column: 'to_address', nocase: true },
    state: { type: 'enum', column: 'state', enumValues: EMAIL_STATES },
    createdAt: { type: 'datetime', column: 'created_at' },
    sentAt: { type: 'datetime', column: 'sent_at' },
  },
  sorts: { attempts: 'attempts' },
  read: { right: 'SettingsRead' },
  rights: { create: null, update: null, delete: null },
  without: ['post', 'put', 'delete'],
});
