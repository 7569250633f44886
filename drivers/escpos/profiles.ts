/**
 * What differs between the printer models an order endpoint names (CONTRACT §8 `type`).
 *
 * - TM88: Epson TM-T88 (IV and later) on 80 mm paper: 180 dpi, 512 dots, Font A 12 dots wide →
 *   42 columns. ESC t 18 is PC852 from the TM-T88IV on (the TM-T88III had PC862 there).
 * - SRP350: Bixolon SRP-350 family on 80 mm paper: also 512 dots at 180 dpi → 42 columns; the
 *   Bixolon code table puts PC852 at ESC t 18 as well.
 * - Generic: an unnamed ESC/POS clone, assumed 203 dpi with 576 dots → 48 columns. Its code tables
 *   are unknown, so text goes out as plain ASCII without diacritics rather than risk garbage.
 *
 * The buzzer: Epson and Bixolon have none built in; their optional buzzer hangs on the drawer
 * kick-out connector and is set to sound on a pulse at pin 5, so the beep is ESC p 1 (pin 2 is
 * left to the cash drawer). Clones mostly carry a buzzer answering ESC B.
 */
import { cmd } from './commands.js';
import type { TextEncoding } from './encoding.js';

export const PRINTER_MODELS = ['TM88', 'SRP350', 'Generic'] as const;
export type PrinterModel = (typeof PRINTER_MODELS)[number];

export interface PrinterProfile {
  model: PrinterModel;
  /** Font A characters per line at normal width. */
  columns: number;
  encoding: TextEncoding;
  /** ESC t argument selecting `encoding`, or null to leave the printer's default table. */
  codeTable: number | null;
  /** Bytes that finish a ticket: feed past the cutter, then cut. */
  cut: number[];
  beep: number[];
}

export const PROFILES: Record<PrinterModel, PrinterProfile> = {
  TM88: { model: 'TM88', columns: 42, encoding: 'cp852', codeTable: 18, cut: cmd.feedAndCut(0), beep: cmd.pulse(1, 100, 100) },
  SRP350: { model: 'SRP350', columns: 42, encoding: 'cp852', codeTable: 18, cut: cmd.feedAndCut(0), beep: cmd.pulse(1, 100, 100) },
  // GS V 66 is not universal among clones: feed the text clear of the cutter, then the plain cut.
  Generic: { model: 'Generic', columns: 48, encoding: 'ascii', codeTable: null, cut: [...cmd.feed(4), ...cmd.cut()], beep: cmd.buzzer(3, 2) },
};

export function profileFor(model: string): PrinterProfile {
  const p = PROFILES[model as PrinterModel];
  if (!p) throw new Error(`'${model}' is not a printer model (${PRINTER_MODELS.join(', ')})`);
  return p;
}
