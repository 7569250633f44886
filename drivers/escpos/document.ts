/**
 * A printed ticket as data (blocks of styled text) and its rendering into printer bytes for one
 * printer profile. Layouts build documents; only the encoder (encoder.ts) knows the command bytes,
 * so a layout test can compare bytes exactly and the fake printer can decode them back into styled lines.
 */
import { Encoder, type Align } from './encoder.js';
import { printable } from './encoding.js';
import type { PrinterProfile } from './profiles.js';

export type { Align };

export interface Style {
  align?: Align;
  bold?: boolean;
  /** Character width and height multipliers. */
  width?: 1 | 2;
  height?: 1 | 2;
  /** White on black. */
  invert?: boolean;
}

export type Block =
  /** Wrapped at word boundaries to the line width of its style. */
  | { kind: 'text'; text: string; style?: Style }
  /** `left` and `right` on one line with the space between; `left` wraps if both do not fit. */
  | { kind: 'row'; left: string; right: string; style?: Style }
  /** A full-width line of `char`. */
  | { kind: 'rule'; char?: string }
  | { kind: 'feed'; lines: number }
  /** A QR code, centred, holding `data` (ASCII; anything else is printed as its ASCII stand-in). */
  | { kind: 'qr'; data: string };

export interface PrintDocument {
  blocks: Block[];
  /** Sound the buzzer after the cut, when the ticket can be torn off. */
  beep?: boolean;
}

type Current = Required<Style>;
const PLAIN: Current = { align: 'left', bold: false, width: 1, height: 1, invert: false };

/**
 * Splits `text` (already printable) into lines of at most `width` cells, breaking at spaces. A
 * paragraph's leading spaces indent its continuation lines too, so a modifier stays under its item.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    const indent = (/^ */.exec(paragraph)?.[0] ?? '').slice(0, Math.max(0, width - 1));
    let line = '';
    for (let word of paragraph.slice(indent.length).split(' ')) {
      if (line && line.length + 1 + word.length <= width) {
        line += ' ' + word;
        continue;
      }
      if (line) lines.push(line);
      while (indent.length + word.length > width) {
        lines.push(indent + word.slice(0, width - indent.length));
        word = word.slice(width - indent.length);
      }
      line = indent + word;
    }
    lines.push(line);
  }
  return lines;
}

export function render(doc: PrintDocument, profile: PrinterProfile): Uint8Array {
  const enc = new Encoder(profile);
  let cur: Current = { ...PLAIN };

  // Emits only the style changes, so equal styles in a row cost no bytes.
  const apply = (style: Style | undefined) => {
    const next: Current = { ...PLAIN, ...style };
    if (next.align !== cur.align) enc.align(next.align);
    if (next.bold !== cur.bold) enc.bold(next.bold);
    if (next.width !== cur.width || next.height !== cur.height) enc.size(next.width, next.height);
    if (next.invert !== cur.invert) enc.invert(next.invert);
    cur = next;
  };
  const line = (text: string) => enc.line(text);
  const widthOf = (style: Style | undefined) => Math.floor(profile.columns / (style?.width ?? 1));

  for (const block of doc.blocks) {
    switch (block.kind) {
      case 'text': {
        apply(block.style);
        for (const l of wrap(printable(block.text, profile.encoding), widthOf(block.style))) line(l);
        break;
      }
      case 'row': {
        apply(block.style);
        const width = widthOf(block.style);
        const right = printable(block.right, profile.encoding);
        const left = wrap(printable(block.left, profile.encoding), width);
        const last = left[left.length - 1];
        for (const l of left.slice(0, -1)) line(l);
        if (last.length + 1 + right.length <= width) line(last + ' '.repeat(width - last.length - right.length) + right);
        else {
          line(last);
          line(right.padStart(width));
        }
        break;
      }
      case 'rule':
        apply(undefined);
        line((block.char ?? '-').repeat(profile.columns));
        break;
      case 'feed':
        enc.feed(block.lines);
        break;
      case 'qr':
        apply({ align: 'center' });
        enc.qr(block.data);
        break;
    }
  }
  apply(undefined);
  return enc.finish(doc.beep === true);
}
