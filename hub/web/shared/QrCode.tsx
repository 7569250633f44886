/**
 * A QR code of a text (a pairing link), drawn as one SVG path in the page itself (qr.ts): no CDN, no
 * image request, nothing put in as HTML. Shared: the manager's page pairs kitchen displays and
 * registers with it, and the register's and the kitchen display's own setup screens may show one too.
 * The text rides along as `data-text`, so a test reads what the code holds.
 *
 * Give it ASCII (a URL percent-encoded): every scanner reads byte-mode ASCII alike, where UTF-8
 * without an ECI marker is read as Latin-1 by some.
 */
import { qrPath } from './qr';

export function QrCode({ text, label, pixels = 192, testId }: { text: string; label: string; pixels?: number; testId?: string }) {
  const { d, size } = qrPath(text);
  return (
    <svg
      class="qr-code"
      role="img"
      aria-label={label}
      width={pixels}
      height={pixels}
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
