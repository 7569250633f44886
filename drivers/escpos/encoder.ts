/**
 * Printer bytes for one ticket, built with node-thermal-printer used as an encoder only: it is
 * given no interface, so it never opens a connection; our transports, queue and status handling
 * send the bytes (driver.ts). It gives us the command sets of both dialects — ESC/POS (its EPSON
 * type) and Star Line mode (its STAR type): initialise, code page, alignment, bold, inverse, character
 * size, partial cut, the ESC/POS buzzer and the ESC/POS QR code.
 *
 * What stays ours, and why:
 * - Text bytes (encoding.ts). Its text path (print/println) converts each character with iconv and,
 *   when the active code page lacks one, silently switches to whichever of ~35 tables has it
 *   (an ESC t mid-line, unknown to a clone), or logs to the console and prints '?' when no page was
 *   set (our Generic profile). Our layouts also measure and wrap the printable string (€ → EUR)
 *   before encoding, so a substitute cannot push a line past the paper's edge. So it is handed the
 *   CP852/ASCII bytes ready-made; it does select the page (ESC t 18, Star ESC GS t 5).
 * - The TM88/SRP350 cut, GS V 66 0 (feed to the cutter, then cut): it only knows fixed feeds
 *   (ESC d 4 per step) before GS V, which wastes paper or cuts into the text on these models.
 * - The TM88/SRP350 beep, ESC p 1 100 100 on pin 5: its openCashDrawer kicks both pins with an
 *   ESC p that lacks the two timing bytes, and its beep is ESC B, which these models do not have.
 * - The Star QR code and Star buzzer (star.ts): its Star QR omits the data command's header; it has
 *   no Star beep.
 */
import thermal from 'node-thermal-printer';
import { cmd } from './commands.js';
import { encodeText, printable } from './encoding.js';
import type { PrinterProfile } from './profiles.js';
import { starBuzzer, starQr } from './star.js';

const { ThermalPrinter, PrinterTypes, BreakLine, CharacterSet } = thermal;

declare module 'node-thermal-printer' {
  interface ThermalPrinter {
    /** Appends the type's HW_INIT (ESC @ in both dialects); in the library, not in its typings. */
    initHardware(): void;
  }
}

export type Align = 'left' | 'center' | 'right';

/** Dots per QR module: a 36-character eKasa UUID or a short URL comes out about 2.5 cm wide. */
const QR_CELL = 6;

export class Encoder {
  private readonly p: InstanceType<typeof ThermalPrinter>;
  private readonly star: boolean;

  constructor(private readonly profile: PrinterProfile) {
    this.star = profile.dialect === 'star';
    this.p = new ThermalPrinter({
      type: this.star ? PrinterTypes.STAR : PrinterTypes.EPSON,
      interface: '',
      width: profile.columns,
      breakLine: BreakLine.NONE,
    });
    // Back to power-on settings, so no style leaks from a previous job; then the code page.
    this.p.initHardware();
    if (profile.encoding === 'cp852') this.p.setCharacterSet(CharacterSet.PC852_LATIN2);
  }

  align(a: Align): void {
    if (a === 'left') this.p.alignLeft();
    else if (a === 'center') this.p.alignCenter();
    else this.p.alignRight();
  }

  bold(on: boolean): void {
    this.p.bold(on);
  }

  invert(on: boolean): void {
    this.p.invert(on);
  }

  /** Character width and height multipliers. */
  size(width: 1 | 2, height: 1 | 2): void {
    if (this.star) {
      // ESC i n1 n2 (height, width).
      if (width === 2 && height === 2) this.p.setTextQuadArea();
      else if (width === 2) this.p.setTextDoubleWidth();
      else if (height === 2) this.p.setTextDoubleHeight();
      else this.p.setTextNormal();
    } else {
      // GS ! n. The library writes its first argument into the high nibble, which ESC/POS reads as
      // the width: (width, height) is the right order here, whatever its parameter names say.
      // (Its setTextDoubleHeight & co. use ESC !, which would also switch bold off.)
      this.p.setTextSize(width - 1, height - 1);
    }
  }

  /** One line of text (already wrapped to the paper), then a line feed. */
  line(text: string): void {
    this.p.add(Buffer.from(encodeText(text, this.profile.encoding)));
    this.p.newLine();
  }

  /**
   * A QR code holding `data`, between blank lines (the symbol needs a quiet zone of four modules).
   * The data goes out as ASCII: the library counts characters, not bytes, in the length it sends.
   */
  qr(data: string): void {
    const ascii = printable(data, 'ascii');
    this.p.newLine();
    if (this.star) this.p.add(Buffer.from(starQr(ascii, QR_CELL)));
    else this.p.printQR(ascii, { model: 2, cellSize: QR_CELL, correction: 'M' });
    this.p.newLine();
  }

  feed(lines: number): void {
    for (let i = 0; i < lines; i++) this.p.newLine();
  }

  /** Cuts (and beeps when asked, once the ticket can be torn off); the ticket's bytes. */
  finish(beep: boolean): Uint8Array {
    const { cut } = this.profile;
    if (cut === 'feed-to-cutter') this.p.add(Buffer.from(cmd.feedAndCut(0)));
    // The library's partial cut: `cut` feeds first (ESC/POS ESC d 4 each; Star's ESC d 3 feeds to
    // the cutter itself), the cut, then ESC @.
    else this.p.partialCut({ verticalTabAmount: cut });
    if (beep) {
      const b = this.profile.beep;
      if (b === 'pin5') this.p.add(Buffer.from(cmd.pulse(1, 100, 100)));
      else if (b === 'star-buzzer') this.p.add(Buffer.from(starBuzzer(3)));
      else this.p.beep(3, 2); // ESC B 3 2: three beeps of 100 ms
    }
    return Uint8Array.from(this.p.getBuffer());
  }
}
