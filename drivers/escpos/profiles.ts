/**
 * What differs between the printer models an order endpoint names (CONTRACT §8 `type`).
 *
 * - TM88: Epson TM-T88 (IV and later) on 80 mm paper: 180 dpi, 512 dots, Font A 12 dots wide →
 *   42 columns. ESC t 18 is PC852 from the TM-T88IV on (the TM-T88III had PC862 there).
 * - SRP350: Bixolon SRP-350 family on 80 mm paper: also 512 dots at 180 dpi → 42 columns; the
 *   Bixolon code table puts PC852 at ESC t 18 as well.
 * - Generic: an unnamed ESC/POS clone, assumed 203 dpi with 576 dots → 48 columns. Its code tables
 *   are unknown, so text goes out as plain ASCII without diacritics rather than risk garbage.
 * - TSP650, TSP100: Star TSP650(II) and TSP100 futurePRNT (TSP143) in Star Line mode (the printer's
 *   emulation switch on Star Line, not ESC/POS), 80 mm paper: 203 dpi, 576 dots, 12-dot font → 48
 *   columns; ESC GS t 5 is code page 852. The first TSP100, without futurePRNT, prints raster
 *   graphics only and cannot take these tickets.
 *
 * The buzzer: Epson and Bixolon have none built in; their optional buzzer hangs on the drawer
 * kick-out connector and is set to sound on a pulse at pin 5, so the beep is ESC p 1 (pin 2 is
 * left to the cash drawer). Clones mostly carry a buzzer answering ESC B. Star's external buzzer
 * answers ESC GS EM on drive terminal 2 (star.ts).
 */
import type { TextEncoding } from './encoding.js';
import type { PrinterDialect } from './protocol.js';
import { refused } from '../settings.js';
import type { Words } from '../words.js';

export interface PrinterProfile {
  model: string;
  /** What a manager reads in the model select, in each language. */
  label: Words;
  /** The command language: bytes (encoder.ts), status and confirmation (protocol.ts). */
  dialect: PrinterDialect;
  /** Font A characters per line at normal width. */
  columns: number;
  /** The code page selected at the start of every ticket (ascii: none, the printer's default table). */
  encoding: TextEncoding;
  /** How a ticket ends: GS V 66 0 (feed to the cutter, cut), or the encoder's partial cut after that many feeds. */
  cut: 'feed-to-cutter' | number;
  /** How it beeps: a pulse on pin 5, ESC B, or Star's external buzzer. */
  beep: 'pin5' | 'buzzer' | 'star-buzzer';
}

const EPSON_LIKE = { dialect: 'escpos', columns: 42, encoding: 'cp852', cut: 'feed-to-cutter', beep: 'pin5' } as const;
const STAR_LINE = { dialect: 'star', columns: 48, encoding: 'cp852', cut: 0, beep: 'star-buzzer' } as const;
const named = (name: string): Words => ({ en: name, sk: name, cs: name });

/**
 * The printer models an order endpoint's `type` may name, in the order the page offers them: adding a
 * model is a line here (the resource's enum, the API document and the page's select read this).
 */
export const PROFILES = {
  TM88: { model: 'TM88', label: named('Epson TM-T88'), ...EPSON_LIKE },
  SRP350: { model: 'SRP350', label: named('Bixolon SRP-350'), ...EPSON_LIKE },
  // GS V 66 is not universal among clones: feed the text clear of the cutter, then the plain cut.
  Generic: {
    model: 'Generic',
    label: { en: 'Another ESC/POS printer (text without accents)', sk: 'Iná tlačiareň ESC/POS (text bez diakritiky)', cs: 'Jiná tiskárna ESC/POS (text bez diakritiky)' },
    dialect: 'escpos',
    columns: 48,
    encoding: 'ascii',
    cut: 1,
    beep: 'buzzer',
  },
  TSP650: { model: 'TSP650', label: named('Star TSP650 (Star Line)'), ...STAR_LINE },
  TSP100: { model: 'TSP100', label: named('Star TSP100 futurePRNT (Star Line)'), ...STAR_LINE },
} as const satisfies Record<string, PrinterProfile>;

export type PrinterModel = keyof typeof PROFILES;
export const PRINTER_MODELS = Object.keys(PROFILES) as [PrinterModel, ...PrinterModel[]];
/** The model assumed where none is named: the one that prints on any ESC/POS printer. */
export const DEFAULT_PRINTER_MODEL: PrinterModel = 'Generic';

export function profileFor(model: string): PrinterProfile {
  const p: PrinterProfile | undefined = PROFILES[model as PrinterModel];
  if (!p) throw refused(new Error(`'${model}' is not a printer model (${PRINTER_MODELS.join(', ')})`), 'printerModel', { setting: 'Model', value: model, values: PRINTER_MODELS.join(', ') });
  return p;
}
