/** The two key shapes most resources share (CONTRACT §3), declared once. */
import { newId } from '../core/ids.js';
import { idKey, nameKey } from './fields.js';

/** `id`: 1-64 of A-Za-z0-9._-, made by the server when a POST leaves it out. */
export const idKeyed = () => ({ field: 'id' as const, column: 'id', type: 'string' as const, schema: idKey(), generate: newId });

/** `name`: the visible name is the key (devices, stocks, order endpoints, fiscal devices). */
export const nameKeyed = () => ({ field: 'name' as const, column: 'name', type: 'string' as const, schema: nameKey() });
