/**
 * The end of the day (and of a shift) at the register: the shift — its drawer, cash in and out, the
 * close with the count (Shift.tsx, /api/shifts); the X report (the day so far) and the Z report (closes
 * the fiscal day), with the right FiscalReport, on this register's fiscal device; and, in a shop that
 * keeps no shift open, the cash count against the fiscal day (POST /api/cashcounts, right CashCount).
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { messages, parseDecimal } from '../shared/i18n';
import { money } from '../shared/format';
import { call, deviceSetting, newKey } from './api';
import { go } from './hooks';
import { ShiftCard } from './Shift';
import { till } from './till';
import { Dialog, ScreenHead, submitting, useAction } from './ui';

const t = messages({
  title: { en: 'Shift & end of day', sk: 'Zmena a uzávierka', cs: 'Směna a uzávěrka' },
  fiscal: { en: 'Fiscal printer {name}', sk: 'Fiškálna tlačiareň {name}', cs: 'Fiskální tiskárna {name}' },
  noFiscal: { en: 'This register has no fiscal printer set (device setting DefaultFiscalName).', sk: 'Táto pokladňa nemá nastavenú fiškálnu tlačiareň (nastavenie zariadenia DefaultFiscalName).', cs: 'Tato pokladna nemá nastavenou fiskální tiskárnu (nastavení zařízení DefaultFiscalName).' },
  x: { en: 'X report (the day so far)', sk: 'X správa (priebežná)', cs: 'X zpráva (průběžná)' },
  z: { en: 'Z report (closes the day)', sk: 'Z správa (uzávierka dňa)', cs: 'Z zpráva (uzávěrka dne)' },
  zSure: { en: 'The Z report closes the fiscal day: receipts after it belong to the next day. Print it now?', sk: 'Z správa uzavrie fiškálny deň: ďalšie doklady patria do nasledujúceho dňa. Vytlačiť ju teraz?', cs: 'Z zpráva uzavře fiskální den: další doklady patří do následujícího dne. Vytisknout ji teď?' },
  printZ: { en: 'Print the Z report', sk: 'Vytlačiť Z správu', cs: 'Vytisknout Z zprávu' },
  printing: { en: 'Printing…', sk: 'Tlačím…', cs: 'Tisknu…' },
  result: { en: '{kind} report {number}: {receipts} receipts, {total}', sk: '{kind} správa č. {number}: dokladov {receipts}, {total}', cs: '{kind} zpráva č. {number}: dokladů {receipts}, {total}' },
  needsReport: { en: 'Reports need the right FiscalReport.', sk: 'Správy potrebujú právo FiscalReport.', cs: 'Zprávy potřebují právo FiscalReport.' },
  count: { en: 'Cash count of the fiscal day', sk: 'Počítanie hotovosti za fiškálny deň', cs: 'Počítání hotovosti za fiskální den' },
  float: { en: 'Cash in the drawer at the start (float)', sk: 'Hotovosť v zásuvke na začiatku', cs: 'Hotovost v zásuvce na začátku' },
  counted: { en: 'Cash counted now', sk: 'Spočítaná hotovosť', cs: 'Spočítaná hotovost' },
  record: { en: 'Record the count', sk: 'Zaznamenať', cs: 'Zaznamenat' },
  expected: { en: 'Expected {amount}', sk: 'Očakávané {amount}', cs: 'Očekáváno {amount}' },
  countedWas: { en: 'Counted {amount}', sk: 'Spočítané {amount}', cs: 'Spočítáno {amount}' },
  difference: { en: 'Difference {amount}', sk: 'Rozdiel {amount}', cs: 'Rozdíl {amount}' },
  needsCount: { en: 'Recording a cash count needs the right CashCount.', sk: 'Zaznamenanie hotovosti potrebuje právo CashCount.', cs: 'Zaznamenání hotovosti potřebuje právo CashCount.' },
  perDay: { en: 'Without a shift: the drawer counted against the fiscal day (since the last Z report).', sk: 'Bez zmeny: hotovosť sa počíta voči fiškálnemu dňu (od poslednej Z správy).', cs: 'Bez směny: hotovost se počítá vůči fiskálnímu dni (od poslední Z zprávy).' },
  needsHub: { en: 'Reports and counts need the hub.', sk: 'Správy a počítanie potrebujú hub.', cs: 'Zprávy a počítání potřebují hub.' },
});

interface Report {
  kind: 'X' | 'Z';
  number: number;
  total: number;
  receipts: number;
}

interface Count {
  expected: number;
  counted: number;
  difference: number;
}

export function Day(): JSX.Element {
  const fiscalName = deviceSetting('DefaultFiscalName');
  const [busy, act] = useAction<'x' | 'z' | 'count'>();
  const [report, setReport] = useState<Report | null>(null);
  const [askZ, setAskZ] = useState(false);
  const [float, setFloat] = useState('');
  const [counted, setCounted] = useState('');
  const [count, setCount] = useState<Count | null>(null);
  const online = till.conn === 'online';

  const run = async (kind: 'x' | 'z') => {
    if (!fiscalName) return;
    setAskZ(false);
    await act(kind, async () => {
      setReport(await call<Report>('POST', `/api/fiscaldevices/${encodeURIComponent(fiscalName)}/reports/${kind}`, undefined, { idempotencyKey: newKey(), timeoutMs: 90_000 }));
    });
  };

  const record = async () => {
    if (!fiscalName) return;
    await act('count', async () => {
      setCount(await call<Count>('POST', '/api/cashcounts', { fiscalName, openingFloat: parseDecimal(float || '0'), counted: parseDecimal(counted) }, { idempotencyKey: newKey() }));
    });
  };

  return (
    <section class="day" data-testid="day">
      <ScreenHead title={t('title')} back="tables" onBack={() => go({ kind: 'tables' })} />
      {!online && <p class="warning">{t('needsHub')}</p>}
      <div class="day-grid">
        <ShiftCard />
        <div class="card">
          {!fiscalName ? (
            <p class="warning">{t('noFiscal')}</p>
          ) : (
            <>
              <h3>{t('fiscal', { name: fiscalName })}</h3>
              {till.can('FiscalReport') ? (
                <div class="stack">
                  <button type="button" class="big" disabled={!!busy || !online} onClick={() => void run('x')} data-testid="x-report">
                    {busy === 'x' ? t('printing') : t('x')}
                  </button>
                  <button type="button" class="big danger" disabled={!!busy || !online} onClick={() => setAskZ(true)} data-testid="z-report">
                    {busy === 'z' ? t('printing') : t('z')}
                  </button>
                </div>
              ) : (
                <p class="muted">{t('needsReport')}</p>
              )}
              {report && (
                <p class="lead" data-testid="report-result">
                  {t('result', { kind: report.kind, number: report.number, receipts: report.receipts, total: money(report.total) })}
                </p>
              )}
            </>
          )}
        </div>
        {/* A shift's close is its count: the fiscal day's count is for a shop that keeps no shift open. */}
        {fiscalName && !till.shift && (
          <div class="card" data-testid="day-count">
            <h3>{t('count')}</h3>
            <p class="muted">{t('perDay')}</p>
            {till.can('CashCount') ? (
              <form class="stack" onSubmit={submitting(record)}>
                <label class="field">
                  <span>{t('float')}</span>
                  <input inputMode="decimal" value={float} onInput={(e) => setFloat(e.currentTarget.value)} data-testid="float" />
                </label>
                <label class="field">
                  <span>{t('counted')}</span>
                  <input inputMode="decimal" value={counted} onInput={(e) => setCounted(e.currentTarget.value)} data-testid="counted" />
                </label>
                <button type="submit" class="big primary" disabled={!!busy || !online || !Number.isFinite(parseDecimal(counted))}>
                  {t('record')}
                </button>
              </form>
            ) : (
              <p class="muted">{t('needsCount')}</p>
            )}
            {count && (
              <div class="count-result" data-testid="count-result">
                <p>{t('expected', { amount: money(count.expected) })}</p>
                <p>{t('countedWas', { amount: money(count.counted) })}</p>
                <p class={count.difference < 0 ? 'negative' : ''}>{t('difference', { amount: money(count.difference) })}</p>
              </div>
            )}
          </div>
        )}
      </div>
      {askZ && (
        <Dialog title={t('z')} onClose={() => setAskZ(false)}>
          <p>{t('zSure')}</p>
          <button type="button" class="danger big" onClick={() => void run('z')} data-testid="z-confirm">
            {t('printZ')}
          </button>
        </Dialog>
      )}
    </section>
  );
}
