/**
 * A QR code drawn as inline SVG (no canvas, no image from anywhere: the page works offline), for a
 * pairing link a tablet scans. The matrix comes from `uqr` (unjs/uqr: a small, dependency-free QR
 * encoder, bundled by Vite); the drawing is ours, one path of dark squares, so Preact renders it as
 * text like everything else. Error correction M and the standard four-module quiet zone: a phone's
 * camera reads it off a laptop screen at arm's length.
 */
import { encode } from 'uqr';

/** The dark modules of `text` as one SVG path over a `size`×`size` grid (the quiet zone included). */
export function qrPath(text: string): { size: number; d: string } {
  const { size, data } = encode(text, { ecc: 'M', border: 4 });
  let d = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return { size, d };
}

export function QrCode({ text, label, px = 192, testId }: { text: string; label: string; px?: number; testId?: string }) {
  const { size, d } = qrPath(text);
  return (
    <svg
      class="qr"
      role="img"
      aria-label={label}
      width={px}
      height={px}
      viewBox={`0 0 ${size} ${size}`}
      shape-rendering="crispEdges"
      data-testid={testId}
      data-text={text}
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
