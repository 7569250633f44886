/**
 * A QR code of a text as SVG path data (QrCode.tsx draws it). The encoding is qrcode-generator's
 * (Kazuhiko Arase's reference implementation, MIT, no dependencies, bundled into the page). Plain
 * TypeScript, so a test can compute the same path for the text it expects.
 */
import qrcode from 'qrcode-generator';

/** The quiet zone scanners need around a code, in modules (the standard's four). */
const QUIET = 4;

/** The dark modules of `text` as SVG path data on a grid of `size` × `size` modules (quiet zone included). */
export function qrPath(text: string, level: 'L' | 'M' | 'Q' | 'H' = 'M'): { d: string; size: number } {
  const qr = qrcode(0, level);
  qr.addData(text, 'Byte');
  qr.make();
  const n = qr.getModuleCount();
  let d = '';
  for (let row = 0; row < n; row++) {
    // A run of dark modules in a row is one rectangle: fewer path commands than one per module.
    for (let col = 0; col < n; col++) {
      if (!qr.isDark(row, col)) continue;
      let end = col;
      while (end + 1 < n && qr.isDark(row, end + 1)) end++;
      d += `M${col + QUIET} ${row + QUIET}h${end - col + 1}v1h-${end - col + 1}z`;
      col = end;
    }
  }
  return { d, size: n + 2 * QUIET };
}
