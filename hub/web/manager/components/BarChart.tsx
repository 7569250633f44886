/** A bar chart drawn as SVG (no chart library, no CDN): sales by hour on the Today page. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { messages, plural } from '../../shared/i18n';

const t = messages({
  tap: { en: 'Tap a bar for its hour.', sk: 'Ťuknite na stĺpec a uvidíte jeho hodinu.', cs: 'Ťukněte na sloupec a uvidíte jeho hodinu.' },
});
const TICKETS = {
  one: { en: '{n} ticket', sk: '{n} účet', cs: '{n} účet' },
  few: { en: '{n} tickets', sk: '{n} účty', cs: '{n} účty' },
  other: { en: '{n} tickets', sk: '{n} účtov', cs: '{n} účtů' },
};

export interface Bar {
  label: string;
  /** The hour range or period the bar stands for, for the caption. */
  title: string;
  value: number;
  count: number;
}

const H = 240;
const M = { top: 16, right: 8, bottom: 30, left: 64 };

/** Round axis steps: 1, 2, 5 × 10^n. */
function niceStep(max: number, ticks = 4): number {
  const raw = max / ticks;
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  const n = raw / mag;
  return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * mag;
}

export function BarChart({ bars, format, current, label }: { bars: Bar[]; format: (n: number) => string; current?: number; label: string }) {
  const [picked, setPicked] = useState<number | null>(null);
  // Drawn at the size it is shown, so labels keep their size on a laptop and on a tablet.
  const box = useRef<HTMLDivElement>(null);
  const [W, setW] = useState(720);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(([entry]) => setW(Math.max(280, Math.round(entry.contentRect.width))));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const max = Math.max(0, ...bars.map((b) => b.value));
  const step = niceStep(max || 1);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const slot = plotW / Math.max(1, bars.length);
  const barW = Math.min(40, slot * 0.68);
  const y = (v: number) => M.top + plotH - (v / top) * plotH;
  const shown = picked ?? current ?? null;
  const caption = shown !== null && bars[shown] ? bars[shown] : null;
  // On a narrow chart every other (or third) hour is labelled, so labels never overlap.
  const every = slot >= 30 ? 1 : slot >= 16 ? 2 : 3;

  return (
    <figure class="chart" ref={box} onMouseLeave={() => setPicked(null)}>
      <figcaption class="chart-caption" aria-live="polite">
        {caption ? (
          <>
            <b>{caption.title}</b> · {format(caption.value)} · {plural(caption.count, TICKETS)}
          </>
        ) : (
          t('tap')
        )}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={label}>
        {ticks.map((t) => (
          <g key={t} class="chart-grid">
            <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} />
            <text x={M.left - 8} y={y(t)} dy="0.35em" text-anchor="end">
              {format(t).replace(/[.,]00(?=\D|$)/, '')}
            </text>
          </g>
        ))}
        {bars.map((b, i) => {
          const x = M.left + i * slot + (slot - barW) / 2;
          const h = Math.max(b.value > 0 ? 2 : 0, (b.value / top) * plotH);
          return (
            <g key={b.label} class={`chart-bar${i === shown ? ' on' : ''}${i === current ? ' now' : ''}`} onClick={() => setPicked(i)} onMouseEnter={() => setPicked(i)}>
              {/* A full-height hit area: short bars are easy to tap too. */}
              <rect class="hit" x={M.left + i * slot} y={M.top} width={slot} height={plotH} />
              <rect class="bar" x={x} y={y(0) - h} width={barW} height={h} rx={3} />
              {i % every === 0 && (
                <text class="chart-x" x={x + barW / 2} y={H - M.bottom + 18} text-anchor="middle">
                  {b.label}
                </text>
              )}
              <title>{`${b.title}: ${format(b.value)} (${b.count})`}</title>
            </g>
          );
        })}
        <line class="chart-axis" x1={M.left} x2={W - M.right} y1={y(0)} y2={y(0)} />
      </svg>
    </figure>
  );
}
