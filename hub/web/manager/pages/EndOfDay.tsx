/**
 * The end of the day (issue 28), in the order it is done: 1. each register's shift — open it with a
 * float, record cash put in or taken out, close it with a count of the drawer (by note and coin) and
 * print its report; 2. the fiscal printer's Z report once the drawers are counted; 3. the export for
 * the accountant. Any other date shows what happened that day: its fiscal days with every X and Z,
 * the counts and the shifts. After a Z the day shown is the one it closed, never an empty new one.
 */
import { useState } from 'preact/hooks';
import { messages, parseDecimal } from '../../shared/i18n';
import type { Device, FiscalDevice } from '../../shared/types';
import type { CashCount, FiscalDay, FiscalDays, Shift } from '../lib/wire';
import { Field } from '../components/Field';
import { confirm, Empty, Facts, PageHeader, toast, useFormAction, useKeyedAction } from '../components/ui';
import { CompactTable, type Col } from '../components/CompactTable';
import { Badge, Button, Card, Notice, Spinner } from '../../shared/ui';
import { api, ApiError, describeError, download, op, path, SLOW_TIMEOUT_MS } from '../lib/api';
import { useAll, useLoad } from '../lib/data';
import { dateTime, dayDate, money, quantity, time } from '../lib/format';
import { addDays, dayOf, isDay, monthOf } from '../../shared/days';
import { useQuery } from '../lib/router';
import { useCan } from '../lib/session';
import { rightWord } from '../lib/rights-words';

const t = messages({
  title: { en: 'End of day', sk: 'Uzávierka dňa', cs: 'Uzávěrka dne' },
  subtitle: {
    en: 'In this order: close each register’s shift with a count of its drawer, then print the Z report, then export the day for the accountant.',
    sk: 'V tomto poradí: uzavrite zmenu každej pokladne spočítaním hotovosti, potom vytlačte uzávierku Z a nakoniec exportujte deň pre účtovníctvo.',
    cs: 'V tomto pořadí: uzavřete směnu každé pokladny spočítáním hotovosti, pak vytiskněte uzávěrku Z a nakonec exportujte den pro účetnictví.',
  },
  date: { en: 'Date', sk: 'Dátum', cs: 'Datum' },
  today: { en: 'Today', sk: 'Dnes', cs: 'Dnes' },
  yesterday: { en: 'Yesterday', sk: 'Včera', cs: 'Včera' },
  step1: { en: '1. Shifts and cash drawers', sk: '1. Zmeny a hotovosť v pokladniach', cs: '1. Směny a hotovost v pokladnách' },
  step2: { en: '2. Z report', sk: '2. Uzávierka (Z)', cs: '2. Uzávěrka (Z)' },
  step3: { en: '3. Export for the accountant', sk: '3. Export pre účtovníctvo', cs: '3. Export pro účetnictví' },
  history: { en: 'Fiscal days of {date}', sk: 'Fiškálne dni {date}', cs: 'Fiskální dny {date}' },
  noRegisters: { en: 'No registers yet', sk: 'Zatiaľ žiadne pokladne', cs: 'Zatím žádné pokladny' },
  noRegistersText: { en: 'Add a register (a CashRegister or PDA device) under Settings.', sk: 'Pokladňu (zariadenie CashRegister alebo PDA) pridáte v Nastaveniach.', cs: 'Pokladnu (zařízení CashRegister nebo PDA) přidáte v Nastavení.' },
  shiftOpen: { en: 'Shift open', sk: 'Zmena otvorená', cs: 'Směna otevřená' },
  noShift: { en: 'No shift open', sk: 'Žiadna otvorená zmena', cs: 'Žádná otevřená směna' },
  openedAt: { en: 'Opened', sk: 'Otvorená', cs: 'Otevřena' },
  closedAt: { en: 'Closed', sk: 'Uzavretá', cs: 'Uzavřena' },
  openingFloat: { en: 'Opening float', sk: 'Počiatočný stav', cs: 'Počáteční stav' },
  cashTaken: { en: 'Cash taken', sk: 'Prijatá hotovosť', cs: 'Přijatá hotovost' },
  cashIn: { en: 'Cash in', sk: 'Vklady', cs: 'Vklady' },
  cashOut: { en: 'Cash out', sk: 'Výbery', cs: 'Výběry' },
  expected: { en: 'Expected in drawer', sk: 'Má byť v pokladni', cs: 'Má být v pokladně' },
  counted: { en: 'Counted', sk: 'Napočítané', cs: 'Napočítáno' },
  difference: { en: 'Difference', sk: 'Rozdiel', cs: 'Rozdíl' },
  tickets: { en: 'Tickets', sk: 'Účty', cs: 'Účty' },
  sales: { en: 'Sales', sk: 'Tržba', cs: 'Tržba' },
  openShift: { en: 'Open the shift', sk: 'Otvoriť zmenu', cs: 'Otevřít směnu' },
  opened: { en: 'Shift opened.', sk: 'Zmena je otvorená.', cs: 'Směna je otevřená.' },
  movement: { en: 'Cash in or out', sk: 'Vklad alebo výber', cs: 'Vklad nebo výběr' },
  kind: { en: 'What', sk: 'Čo', cs: 'Co' },
  in: { en: 'Cash in', sk: 'Vklad', cs: 'Vklad' },
  out: { en: 'Cash out', sk: 'Výber', cs: 'Výběr' },
  amount: { en: 'Amount', sk: 'Suma', cs: 'Částka' },
  reason: { en: 'Reason', sk: 'Dôvod', cs: 'Důvod' },
  record: { en: 'Record', sk: 'Zaznamenať', cs: 'Zaznamenat' },
  recorded: { en: 'Recorded.', sk: 'Zaznamenané.', cs: 'Zaznamenáno.' },
  needReason: { en: 'Say why, as the manager will read it.', sk: 'Uveďte dôvod, ako si ho prečíta vedúci.', cs: 'Uveďte důvod, jak si ho přečte vedoucí.' },
  enterAmount: { en: 'Enter an amount, e.g. 150,50.', sk: 'Zadajte sumu, napr. 150,50.', cs: 'Zadejte částku, např. 150,50.' },
  closeShift: { en: 'Count and close the shift', sk: 'Spočítať a uzavrieť zmenu', cs: 'Spočítat a uzavřít směnu' },
  countTitle: { en: 'Count the drawer of {register}', sk: 'Spočítajte hotovosť v pokladni {register}', cs: 'Spočítejte hotovost v pokladně {register}' },
  countHint: {
    en: 'Count the notes and coins (or type the total), then close: the shift report prints on the register’s printer.',
    sk: 'Spočítajte bankovky a mince (alebo zadajte sumu), potom zmenu uzavrite: prehľad zmeny sa vytlačí na tlačiarni pokladne.',
    cs: 'Spočítejte bankovky a mince (nebo zadejte částku), pak směnu uzavřete: přehled směny se vytiskne na tiskárně pokladny.',
  },
  countedTotal: { en: 'Counted in total', sk: 'Napočítané spolu', cs: 'Napočítáno celkem' },
  print: { en: 'Print the shift report', sk: 'Vytlačiť prehľad zmeny', cs: 'Vytisknout přehled směny' },
  closeNow: { en: 'Close the shift', sk: 'Uzavrieť zmenu', cs: 'Uzavřít směnu' },
  closedShift: { en: 'Shift closed: difference {difference}.', sk: 'Zmena je uzavretá: rozdiel {difference}.', cs: 'Směna je uzavřená: rozdíl {difference}.' },
  missing: { en: 'cash is missing', sk: 'chýba hotovosť', cs: 'chybí hotovost' },
  surplus: { en: 'more than expected', sk: 'viac, ako sa čakalo', cs: 'více, než se čekalo' },
  exact: { en: 'the drawer is right', sk: 'pokladňa sedí', cs: 'pokladna sedí' },
  cancel: { en: 'Cancel', sk: 'Zrušiť', cs: 'Zrušit' },
  reprint: { en: 'Print', sk: 'Tlačiť', cs: 'Tisk' },
  printQueued: { en: 'The shift report is on its way to {printer}.', sk: 'Prehľad zmeny ide na tlačiareň {printer}.', cs: 'Přehled směny jde na tiskárnu {printer}.' },
  shiftsOfDay: { en: 'Shifts of the day', sk: 'Zmeny dňa', cs: 'Směny dne' },
  noShifts: { en: 'No shift that day', sk: 'V ten deň žiadna zmena', cs: 'V ten den žádná směna' },
  register: { en: 'Register', sk: 'Pokladňa', cs: 'Pokladna' },
  by: { en: 'By', sk: 'Kto', cs: 'Kdo' },
  when: { en: 'When', sk: 'Kedy', cs: 'Kdy' },
  movements: { en: 'Cash in and out', sk: 'Vklady a výbery', cs: 'Vklady a výběry' },
  noCountRight: { en: 'Opening and closing a shift needs the right “{right}”.', sk: 'Otvoriť a uzavrieť zmenu môžete len s právom „{right}“.', cs: 'Otevřít a uzavřít směnu lze jen s právem „{right}“.' },
  fiscalDevice: { en: 'Fiscal printer', sk: 'Fiškálna tlačiareň', cs: 'Fiskální tiskárna' },
  dayNumber: { en: 'Fiscal day {n}', sk: 'Fiškálny deň č. {n}', cs: 'Fiskální den č. {n}' },
  openDay: { en: 'Open (X report)', sk: 'Otvorený (X správa)', cs: 'Otevřený (X zpráva)' },
  closedDay: { en: 'Closed (Z report)', sk: 'Uzavretý (uzávierka Z)', cs: 'Uzavřený (uzávěrka Z)' },
  unknown: { en: 'Not known', sk: 'Neznámy', cs: 'Neznámý' },
  noSalesYet: { en: 'No receipts since the last Z report.', sk: 'Od poslednej uzávierky žiadne doklady.', cs: 'Od poslední uzávěrky žádné doklady.' },
  shiftsStillOpen: {
    en: 'Close these shifts first, so their drawers are counted: {registers}.',
    sk: 'Najprv uzavrite tieto zmeny, aby bola hotovosť spočítaná: {registers}.',
    cs: 'Nejprve uzavřete tyto směny, aby byla hotovost spočítaná: {registers}.',
  },
  countFirst: {
    en: 'Count the drawer first (shifts above, or the count below), then print the Z report: it closes the fiscal day.',
    sk: 'Najprv spočítajte hotovosť (zmeny vyššie alebo počítanie nižšie), potom vytlačte uzávierku Z: uzavrie fiškálny deň.',
    cs: 'Nejprve spočítejte hotovost (směny výše nebo počítání níže), pak vytiskněte uzávěrku Z: uzavře fiskální den.',
  },
  xReport: { en: 'X report', sk: 'X správa', cs: 'X zpráva' },
  zReport: { en: 'Print the Z report', sk: 'Vytlačiť uzávierku (Z)', cs: 'Vytisknout uzávěrku (Z)' },
  zTitle: { en: 'Close the fiscal day on {name}?', sk: 'Uzavrieť fiškálny deň na {name}?', cs: 'Uzavřít fiskální den na {name}?' },
  zText: {
    en: 'The Z report ends the fiscal day: do it once, after the last receipt and the count. The next receipts belong to the next day.',
    sk: 'Uzávierka Z ukončí fiškálny deň: urobte ju raz, po poslednom doklade a po spočítaní hotovosti. Ďalšie doklady patria do ďalšieho dňa.',
    cs: 'Uzávěrka Z ukončí fiskální den: udělejte ji jednou, po posledním dokladu a po spočítání hotovosti. Další doklady patří do dalšího dne.',
  },
  zConfirm: { en: 'Print the Z report', sk: 'Vytlačiť uzávierku', cs: 'Vytisknout uzávěrku' },
  zDone: { en: 'Z report {n} printed: {receipts} receipts, {total}.', sk: 'Uzávierka č. {n} vytlačená: dokladov {receipts}, {total}.', cs: 'Uzávěrka č. {n} vytištěna: dokladů {receipts}, {total}.' },
  xDone: { en: 'X report printed: {receipts} receipts, {total}.', sk: 'X správa vytlačená: dokladov {receipts}, {total}.', cs: 'X zpráva vytištěna: dokladů {receipts}, {total}.' },
  dayCount: { en: 'Count the drawer (without shifts)', sk: 'Spočítať hotovosť (bez zmien)', cs: 'Spočítat hotovost (bez směn)' },
  saveCount: { en: 'Record the count', sk: 'Zaznamenať počítanie', cs: 'Zaznamenat počítání' },
  countRecorded: { en: 'Cash count recorded.', sk: 'Počítanie hotovosti zaznamenané.', cs: 'Počítání hotovosti zaznamenáno.' },
  total: { en: 'Total', sk: 'Spolu', cs: 'Celkem' },
  vat: { en: 'VAT', sk: 'DPH', cs: 'DPH' },
  base: { en: 'VAT base', sk: 'Základ DPH', cs: 'Základ DPH' },
  rate: { en: 'VAT rate', sk: 'Sadzba DPH', cs: 'Sazba DPH' },
  withVat: { en: 'With VAT', sk: 'S DPH', cs: 'S DPH' },
  payment: { en: 'Payment type', sk: 'Typ platby', cs: 'Typ platby' },
  reports: { en: 'X and Z reports', sk: 'X správy a uzávierky', cs: 'X zprávy a uzávěrky' },
  receipts: { en: 'Receipts', sk: 'Doklady', cs: 'Doklady' },
  counts: { en: 'Cash counts', sk: 'Počítania hotovosti', cs: 'Počítání hotovosti' },
  ofShift: { en: 'shift of {register}', sk: 'zmena {register}', cs: 'směna {register}' },
  ofDay: { en: 'the fiscal day', sk: 'fiškálny deň', cs: 'fiskální den' },
  noDays: { en: 'No fiscal day that date', sk: 'V tento deň žiadny fiškálny deň', cs: 'V tento den žádný fiskální den' },
  noDaysText: { en: 'Receipts, X and Z reports and cash counts of the date appear here.', sk: 'Zobrazia sa tu doklady, X správy, uzávierky a počítania hotovosti z tohto dňa.', cs: 'Zobrazí se zde doklady, X zprávy, uzávěrky a počítání hotovosti z tohoto dne.' },
  ico: { en: 'Company ID (IČO) in POHODA', sk: 'IČO účtovnej jednotky v POHODE', cs: 'IČO účetní jednotky v POHODĚ' },
  icoHint: { en: 'POHODA imports the file only into the accounting unit with this IČO.', sk: 'POHODA súbor naimportuje len do účtovnej jednotky s týmto IČO.', cs: 'POHODA soubor naimportuje jen do účetní jednotky s tímto IČO.' },
  icoNeeded: { en: 'Enter the IČO (digits only).', sk: 'Zadajte IČO (len číslice).', cs: 'Zadejte IČO (jen číslice).' },
  exportText: {
    en: 'POHODA XML: an internal document a day with the sales per VAT rate. CSV: a journal line per receipt and VAT rate.',
    sk: 'POHODA XML: interný doklad za každý deň s tržbou podľa sadzieb DPH. CSV: denník s riadkom za každý doklad a sadzbu DPH.',
    cs: 'POHODA XML: interní doklad za každý den s tržbou podle sazeb DPH. CSV: deník s řádkem za každý doklad a sazbu DPH.',
  },
  pohodaDay: { en: 'POHODA XML, the day', sk: 'POHODA XML za deň', cs: 'POHODA XML za den' },
  pohodaMonth: { en: 'POHODA XML, the month', sk: 'POHODA XML za mesiac', cs: 'POHODA XML za měsíc' },
  csvDay: { en: 'CSV journal, the day', sk: 'CSV denník za deň', cs: 'CSV deník za den' },
  csvMonth: { en: 'CSV journal, the month', sk: 'CSV denník za mesiac', cs: 'CSV deník za měsíc' },
  downloaded: { en: 'Downloaded {file}.', sk: 'Stiahnutý súbor {file}.', cs: 'Stažen soubor {file}.' },
});

const DENOMINATIONS = [500, 200, 100, 50, 20, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01];
const REGISTER_ENVS = new Set(['CashRegister', 'PDA']);
const ICO_KEY = 'poshub.ico';
const cents = (n: number) => Math.round(n * 100);
const who = (p: { userName: string; name: string } | null | undefined) => (p ? p.name || p.userName : '—');
const diffTone = (n: number) => (n < 0 ? 'bad' : n > 0 ? 'warn' : 'good');
const diffWords = (n: number) => (n < 0 ? t('missing') : n > 0 ? t('surplus') : t('exact'));
/** Sales by payment type, as a fiscal day and a shift report both show them. */
const paymentCols = (title: string): Array<Col<FiscalDay['payments'][number]>> => [
  { title, cell: (p) => p.name },
  { title: t('tickets'), figure: true, cell: (p) => p.tickets },
  { title: t('amount'), figure: true, cell: (p) => money(p.amount) },
];

export function EndOfDay() {
  const [q, setQuery] = useQuery();
  // The shop's today (the fiscal days are the shop's), wherever the browser is.
  const today = dayOf(new Date());
  // The calendar's day before, not 24 hours ago: the day summer time begins has 23 hours.
  const yesterday = addDays(today, -1);
  const asked = q.get('date');
  const day = asked && isDay(asked) ? asked : today;
  const isToday = day === today;
  const url = `/api/reports/fiscaldays?${new URLSearchParams({ date: day })}`;
  const history = useLoad<FiscalDays>(url, (signal) => api.get<FiscalDays>(url, signal), ['tickets', 'shifts', 'cashcounts', 'fiscalreports']);
  return (
    <div class="page">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <div class="filter-grid eod-date">
        <Field label={t('date')} kind="day" value={day} onChange={(v) => v && setQuery({ date: v === today ? null : (v as string) }, { replace: true })} testId="eod-date" />
        <div class="segmented" role="group" aria-label={t('date')}>
          {(
            [
              ['today', today],
              ['yesterday', yesterday],
            ] as const
          ).map(([k, d]) => (
            <button key={k} type="button" aria-pressed={day === d} class={day === d ? 'on' : ''} onClick={() => setQuery({ date: d === today ? null : d }, { replace: true })}>
              {t(k)}
            </button>
          ))}
        </div>
      </div>
      {history.error && <Notice tone="bad">{history.error}</Notice>}
      <Card title={t('step1')}>
        <div class="stack">
          {isToday && <Registers />}
          <ShiftsOfDay shifts={history.data?.shifts ?? null} />
        </div>
      </Card>
      <Card title={t('step2')}>
        <div class="stack">
          {isToday && <ZStep shiftsToday={history.data?.shifts ?? []} />}
          {history.data ? <DaysOf data={history.data} /> : <Spinner />}
        </div>
      </Card>
      <Card title={t('step3')}>
        <ExportStep day={day} />
      </Card>
      <style>{STYLE}</style>
    </div>
  );
}

/** Every register with its open shift, and what may be done with it now. */
function Registers() {
  const can = useCan();
  const devices = useAll<Device>('devices');
  const open = useAll<Shift>('shifts', { filters: { State: op.eq('Open') } }, ['shifts', 'tickets']);
  const registers = (devices.data ?? []).filter((d) => REGISTER_ENVS.has(d.envName) && d.isActive !== false);
  if (!devices.data) return <Spinner />;
  if (!registers.length) return <Empty icon="register" title={t('noRegisters')}>{t('noRegistersText')}</Empty>;
  return (
    <div class="stack">
      {!can('CashCount') && <Notice tone="info">{t('noCountRight', { right: rightWord('CashCount') })}</Notice>}
      <ul class="eod-registers">
        {registers.map((d) => (
          <RegisterRow key={d.name} device={d} shift={(open.data ?? []).find((s) => s.deviceName === d.name) ?? null} reload={open.reload} />
        ))}
      </ul>
    </div>
  );
}

function RegisterRow({ device, shift, reload }: { device: Device; shift: Shift | null; reload: () => void }) {
  const can = useCan();
  const [mode, setMode] = useState<'none' | 'movement' | 'close'>('none');
  const [float, setFloat] = useState('');
  const { busy, failure, fail, run } = useFormAction();
  const openShift = async () => {
    const amount = parseDecimal(float || '0');
    if (Number.isNaN(amount) || amount < 0) return fail(t('enterAmount'));
    await run(async () => {
      await api.post('/api/shifts', { deviceName: device.name, openingFloat: amount });
      setFloat('');
      toast(t('opened'));
      reload();
    });
  };
  return (
    <li class="eod-register" data-testid={`register-${device.name}`}>
      <div class="eod-register-head">
        <b>{device.name}</b>
        {shift ? <Badge tone="info">{t('shiftOpen')}</Badge> : <Badge>{t('noShift')}</Badge>}
      </div>
      {shift ? (
        <>
          <Facts
            items={[
              [t('openedAt'), `${dateTime(shift.openedAt)} · ${who(shift.openedBy)}`],
              [t('openingFloat'), money(shift.openingFloat)],
              [t('tickets'), quantity(shift.sales.tickets)],
              [t('cashTaken'), <span data-testid="shift-cash">{money(shift.sales.cash)}</span>],
              [t('cashIn'), money(shift.cashIn)],
              [t('cashOut'), money(shift.cashOut)],
              [t('expected'), <b data-testid="shift-expected">{money(shift.expected)}</b>],
            ]}
          />
          {mode === 'none' && (
            <div class="eod-actions">
              {can('CashMovement') && (
                <Button icon="plus" onClick={() => setMode('movement')} data-testid="shift-movement">
                  {t('movement')}
                </Button>
              )}
              {can('CashCount') && (
                <Button variant="primary" icon="check" onClick={() => setMode('close')} data-testid="shift-close">
                  {t('closeShift')}
                </Button>
              )}
            </div>
          )}
          {mode === 'movement' && <MovementForm shift={shift} onDone={() => setMode('none')} />}
          {mode === 'close' && <CloseForm shift={shift} printer={device.settings?.DefaultOrderEndpointName ?? null} onDone={() => setMode('none')} />}
        </>
      ) : (
        can('CashCount') && (
          <div class="eod-inline">
            <Field label={t('openingFloat')} kind="text" value={float} onChange={(v) => setFloat(v as string)} suffix="€" testId="shift-float" />
            <Button variant="primary" busy={busy} onClick={() => void openShift()} data-testid="shift-open">
              {t('openShift')}
            </Button>
          </div>
        )
      )}
      {failure && <Notice tone="bad">{failure}</Notice>}
    </li>
  );
}

function MovementForm({ shift, onDone }: { shift: Shift; onDone: () => void }) {
  const [kind, setKind] = useState<'In' | 'Out'>('Out');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { busy, failure, run } = useFormAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const value = parseDecimal(amount);
    const found: Record<string, string> = {};
    if (Number.isNaN(value) || value <= 0) found.amount = t('enterAmount');
    if (!reason.trim()) found.reason = t('needReason');
    setErrors(found);
    if (Object.keys(found).length) return;
    await run(async () => {
      await api.post(`${path('shifts', shift.id)}/movements`, { kind, amount: value, reason: reason.trim() });
      toast(t('recorded'));
      onDone();
    });
  };
  return (
    <form class="form stack eod-form" noValidate onSubmit={(e) => void submit(e)}>
      <div class="form-grid">
        <Field
          label={t('kind')}
          kind="select"
          value={kind}
          options={[
            { value: 'Out', label: t('out') },
            { value: 'In', label: t('in') },
          ]}
          onChange={(v) => setKind(v as 'In' | 'Out')}
          testId="movement-kind"
        />
        <Field label={t('amount')} kind="text" value={amount} onChange={(v) => setAmount(v as string)} error={errors.amount} suffix="€" required testId="movement-amount" />
        <Field label={t('reason')} value={reason} onChange={(v) => setReason(v as string)} error={errors.reason} required wide testId="movement-reason" />
      </div>
      <FormFoot failure={failure} busy={busy} save={t('record')} testId="movement-save" onCancel={onDone} />
    </form>
  );
}

/** A shift form's foot: what went wrong, its save button and the way out. */
function FormFoot({ failure, busy, save, icon, testId, onCancel }: { failure: string | null; busy: boolean; save: string; icon?: 'check'; testId: string; onCancel: () => void }) {
  return (
    <>
      {failure && <Notice tone="bad">{failure}</Notice>}
      <div class="eod-actions">
        <Button type="submit" variant="primary" icon={icon} busy={busy} data-testid={testId}>
          {save}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {t('cancel')}
        </Button>
      </div>
    </>
  );
}

/** The count of a drawer by note and coin (or its total typed), against what it should hold. */
function CloseForm({ shift, printer, onDone }: { shift: Shift; printer: string | null; onDone: () => void }) {
  const [counts, setCounts] = useState<Record<string, string>>({});
  const [typed, setTyped] = useState('');
  const [print, setPrint] = useState(!!printer);
  const { busy, failure, run } = useFormAction();
  const [error, setError] = useState<string | null>(null);
  const denominations = DENOMINATIONS.map((value) => ({ value, count: Number.parseInt(counts[String(value)] || '0', 10) })).filter((d) => Number.isFinite(d.count) && d.count > 0);
  const byNotes = denominations.reduce((s, d) => s + cents(d.value) * d.count, 0);
  const typedValue = parseDecimal(typed);
  const countedCents = typed.trim() ? cents(typedValue) : byNotes;
  const differenceCents = countedCents - cents(shift.expected);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (typed.trim() && (Number.isNaN(typedValue) || typedValue < 0)) return setError(t('enterAmount'));
    if (!typed.trim() && !denominations.length) return setError(t('enterAmount'));
    setError(null);
    await run(async () => {
      const body: Record<string, unknown> = typed.trim() ? { counted: typedValue } : { denominations };
      if (print) body.print = {};
      const closed = await api.post<Shift>(`${path('shifts', shift.id)}/close`, body);
      toast(t('closedShift', { difference: money(closed.difference) }), diffTone(closed.difference ?? 0) === 'bad' ? 'bad' : 'good');
      onDone();
    });
  };
  return (
    <form class="form stack eod-form" noValidate onSubmit={(e) => void submit(e)} data-testid="close-form">
      <h3>{t('countTitle', { register: shift.deviceName ?? '' })}</h3>
      <p class="muted">{t('countHint')}</p>
      <div class="eod-notes">
        {DENOMINATIONS.map((value) => (
          <label key={value} class="eod-note">
            <span>{money(value)}</span>
            <input
              class="input"
              type="text"
              inputMode="numeric"
              value={counts[String(value)] ?? ''}
              onInput={(e) => setCounts({ ...counts, [String(value)]: e.currentTarget.value.replace(/\D/g, '') })}
              data-testid={`note-${value}`}
              aria-label={`${money(value)} ×`}
            />
          </label>
        ))}
      </div>
      <div class="form-grid">
        <Field label={t('countedTotal')} kind="text" value={typed} placeholder={(byNotes / 100).toFixed(2)} onChange={(v) => setTyped(v as string)} error={error} suffix="€" testId="close-counted" />
        <Field label={t('print')} kind="switch" value={print} onChange={(v) => setPrint(!!v)} testId="close-print" />
      </div>
      <p class="eod-sum">
        {t('expected')}: <b data-testid="close-expected">{money(shift.expected)}</b> · {t('counted')}: <b data-testid="close-total">{money(countedCents / 100)}</b> · {t('difference')}:{' '}
        <b class={differenceCents < 0 ? 'negative' : ''} data-testid="close-difference">
          {money(differenceCents / 100)}
        </b>{' '}
        ({diffWords(differenceCents)})
      </p>
      <FormFoot failure={failure} busy={busy} save={t('closeNow')} icon="check" testId="close-save" onCancel={onDone} />
    </form>
  );
}

/** The date's shifts: from float to count, each with its report to print again. */
function ShiftsOfDay({ shifts }: { shifts: Shift[] | null }) {
  const [busy, run] = useKeyedAction<string>();
  const [open, setOpen] = useState<string | null>(null);
  if (!shifts) return null;
  const reprint = (s: Shift) =>
    run(s.id, async () => {
      const job = await api.post<{ orderEndpointName: string }>(`${path('shifts', s.id)}/print`, {});
      toast(t('printQueued', { printer: job.orderEndpointName }));
    });
  const toggle = (s: Shift) => setOpen(open === s.id ? null : s.id);
  return (
    <div class="stack">
      <h3>{t('shiftsOfDay')}</h3>
      {shifts.length === 0 ? (
        <p class="muted">{t('noShifts')}</p>
      ) : (
        <CompactTable
          label={t('shiftsOfDay')}
          testId="shifts-table"
          scroll
          rows={shifts}
          rowKey={(s) => s.id}
          rowProps={(s) => ({
            'data-key': s.id,
            class: `clickable${open === s.id ? ' selected' : ''}`,
            tabIndex: 0,
            'aria-expanded': open === s.id,
            onClick: () => toggle(s),
            onKeyDown: (e) => e.key === 'Enter' && toggle(s),
          })}
          cols={[
            { title: t('register'), cell: (s) => s.deviceName },
            { title: t('when'), cell: (s) => <>{time(s.openedAt)}–{s.closedAt ? time(s.closedAt) : <Badge tone="info">{t('shiftOpen')}</Badge>}</> },
            { title: t('openingFloat'), figure: true, cell: (s) => money(s.openingFloat) },
            { title: t('cashTaken'), figure: true, cell: (s) => money(s.sales.cash) },
            { title: t('expected'), figure: true, id: 'expected', cell: (s) => money(s.expected) },
            { title: t('counted'), figure: true, id: 'counted', cell: (s) => (s.counted === null ? '—' : money(s.counted)) },
            { title: t('difference'), figure: true, id: 'difference', cell: (s) => (s.difference === null ? '—' : <span class={s.difference < 0 ? 'negative' : ''}>{money(s.difference)}</span>) },
            {
              cell: (s) => (
                <Button
                  small
                  icon="printer"
                  busy={busy === s.id}
                  onClick={(e: Event) => {
                    e.stopPropagation();
                    void reprint(s);
                  }}
                >
                  {t('reprint')}
                </Button>
              ),
            },
          ]}
        />
      )}
      {shifts.filter((s) => s.id === open).map((s) => (
        <ShiftReport key={s.id} shift={s} />
      ))}
    </div>
  );
}

/** A shift's report as printed: its sales by payment type, each movement with its reason, the count by note and coin. */
function ShiftReport({ shift: s }: { shift: Shift }) {
  return (
    <div class="grid-2 eod-report" data-testid="shift-report">
      <h3 class="span-2">
        {s.deviceName} · {dateTime(s.openedAt)} {who(s.openedBy)}
        {s.closedAt && ` – ${dateTime(s.closedAt)} ${who(s.closedBy)}`}
      </h3>
      <CompactTable label={t('sales')} cols={paymentCols(t('sales'))} rows={s.sales.payments} rowKey={(p) => p.paymentTypeNumber} foot={[t('total'), s.sales.tickets, money(s.sales.total)]} />
      <div class="stack">
        {s.movements.length > 0 && (
          <CompactTable
            label={t('movements')}
            testId="shift-movements"
            rows={s.movements}
            rowKey={(m) => m.id}
            cols={[
              { title: t('movements'), cell: (m) => <>{time(m.at)} {who(m.by)}</> },
              { title: t('reason'), cell: (m) => m.reason },
              { title: t('amount'), figure: true, class: (m) => (m.kind === 'Out' ? 'negative' : ''), cell: (m) => money(m.kind === 'Out' ? -m.amount : m.amount) },
            ]}
          />
        )}
        {s.denominations && s.denominations.length > 0 && (
          <table class="compact" aria-label={t('counted')}>
            <tbody>
              {s.denominations.map((d) => (
                <tr key={d.value}>
                  <td>
                    {d.count} × {money(d.value)}
                  </td>
                  <td class="al-right num">{money((cents(d.value) * d.count) / 100)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}

/** Each fiscal printer's open day, with the X and Z buttons; the drawers are counted first. */
function ZStep({ shiftsToday }: { shiftsToday: Shift[] }) {
  const can = useCan();
  const devices = useAll<FiscalDevice>('fiscaldevices');
  const open = useAll<Shift>('shifts', { filters: { State: op.eq('Open') } }, ['shifts']);
  if (!can('SettingsRead')) return null;
  const active = (devices.data ?? []).filter((f) => f.isActive);
  return (
    <div class="stack">
      <Notice tone="info">{t('countFirst')}</Notice>
      {active.map((f) => (
        <FiscalToday key={f.name} device={f} openShifts={(open.data ?? []).filter((s) => s.fiscalName === f.name)} usesShifts={shiftsToday.some((s) => s.fiscalName === f.name)} />
      ))}
    </div>
  );
}

/** `usesShifts`: the registers printing on it ran shifts today, whose closes counted the drawers. */
function FiscalToday({ device, openShifts, usesShifts }: { device: FiscalDevice; openShifts: Shift[]; usesShifts: boolean }) {
  const can = useCan();
  const url = `/api/reports/fiscalday?${new URLSearchParams({ fiscalName: device.name })}`;
  // No day known yet (a new printer): nothing sold since it came, which the page says as such.
  const day = useLoad<FiscalDay | null>(url, (signal) => api.get<FiscalDay>(url, signal).catch((e: unknown) => (e instanceof ApiError && e.status === 400 ? null : Promise.reject(e))), ['tickets', 'fiscalreports']);
  const [busy, setBusy] = useState<'x' | 'z' | null>(null);
  const [result, setResult] = useState<{ tone: 'good' | 'bad'; text: string } | null>(null);
  const report = async (kind: 'x' | 'z') => {
    if (kind === 'z') {
      const ok = await confirm({ title: t('zTitle', { name: device.name }), text: t('zText'), confirm: t('zConfirm'), danger: true });
      if (!ok) return;
    }
    setBusy(kind);
    setResult(null);
    try {
      const r = await api.post<{ number: number; receipts: number; total: number }>(`${path('fiscaldevices', device.name)}/reports/${kind}`, {}, SLOW_TIMEOUT_MS);
      const words = { n: r.number, receipts: r.receipts, total: money(r.total) };
      setResult({ tone: 'good', text: kind === 'z' ? t('zDone', words) : t('xDone', words) });
      day.reload();
    } catch (e) {
      setResult({ tone: 'bad', text: describeError(e) });
    } finally {
      setBusy(null);
    }
  };
  const d = day.data;
  const empty = !d || !d.isOpen || d.tickets === 0;
  return (
    <section class="eod-fiscal" data-testid={`fiscal-${device.name}`}>
      <div class="eod-register-head">
        <b>{device.name}</b>
        {d && d.isOpen && <span class="muted">{t('dayNumber', { n: d.dailySalesReportNumber })}</span>}
      </div>
      {empty ? (
        <p class="muted">{t('noSalesYet')}</p>
      ) : (
        <Facts
          items={[
            [t('tickets'), quantity(d.tickets)],
            [t('sales'), <b data-testid="open-day-total">{money(d.total)}</b>],
            [t('cashTaken'), money(d.cashSales)],
          ]}
        />
      )}
      {openShifts.length > 0 && <Notice tone="warn">{t('shiftsStillOpen', { registers: openShifts.map((s) => s.deviceName).join(', ') })}</Notice>}
      {can('FiscalReport') && (
        <div class="eod-actions">
          <Button busy={busy === 'x'} onClick={() => void report('x')} data-testid="x-report">
            {t('xReport')}
          </Button>
          <Button variant={openShifts.length ? 'secondary' : 'danger'} busy={busy === 'z'} onClick={() => void report('z')} data-testid="z-report">
            {t('zReport')}
          </Button>
        </div>
      )}
      {result && (
        <Notice tone={result.tone} onClose={() => setResult(null)}>
          <span data-testid="fiscal-message">{result.text}</span>
        </Notice>
      )}
      {!empty && d && can('CashCount') && !usesShifts && <DayCount fiscalName={device.name} cashSales={d.cashSales} />}
    </section>
  );
}

/** A shop without shifts counts the fiscal day's drawer: its float and the day's cash. */
function DayCount({ fiscalName, cashSales }: { fiscalName: string; cashSales: number }) {
  const [show, setShow] = useState(false);
  const [opening, setOpening] = useState('0');
  const [counted, setCounted] = useState('');
  const { busy, failure, fail, run } = useFormAction();
  const [result, setResult] = useState<CashCount | null>(null);
  const float = parseDecimal(opening || '0');
  const count = parseDecimal(counted);
  if (!show) {
    return (
      <div>
        <Button onClick={() => setShow(true)} data-testid="day-count">
          {t('dayCount')}
        </Button>
      </div>
    );
  }
  const submit = async (e: Event) => {
    e.preventDefault();
    if (Number.isNaN(float) || float < 0 || Number.isNaN(count) || count < 0) return fail(t('enterAmount'));
    await run(async () => {
      setResult(await api.post<CashCount>('/api/cashcounts', { fiscalName, openingFloat: float, counted: count }));
      toast(t('countRecorded'));
    });
  };
  return (
    <form class="form stack eod-form" noValidate onSubmit={(e) => void submit(e)}>
      <div class="form-grid">
        <Field label={t('openingFloat')} kind="text" value={opening} onChange={(v) => setOpening(v as string)} suffix="€" testId="count-float" />
        <Field label={t('counted')} kind="text" value={counted} onChange={(v) => setCounted(v as string)} suffix="€" required testId="count-counted" />
      </div>
      <p class="muted">
        {t('expected')}: <b data-testid="count-expected">{Number.isNaN(float) ? '—' : money((cents(float) + cents(cashSales)) / 100)}</b>
      </p>
      {failure && <Notice tone="bad">{failure}</Notice>}
      {result && (
        <Notice tone={diffTone(result.difference)}>
          <span data-testid="count-result">
            {t('expected')} <b>{money(result.expected)}</b> · {t('counted')} <b>{money(result.counted)}</b> · {t('difference')} <b data-testid="count-difference">{money(result.difference)}</b> ({diffWords(result.difference)})
          </span>
        </Notice>
      )}
      <div>
        <Button type="submit" variant="primary" icon="check" busy={busy} data-testid="count-save">
          {t('saveCount')}
        </Button>
      </div>
    </form>
  );
}

/** The date's fiscal days: figures, every X and Z report, every count. */
function DaysOf({ data }: { data: FiscalDays }) {
  return (
    <div class="stack">
      <h3>{t('history', { date: dayDate(data.date) })}</h3>
      {data.days.length === 0 && <Empty icon="fiscal" title={t('noDays')}>{t('noDaysText')}</Empty>}
      {data.days.map(({ figures: d, reports, cashCounts }) => (
        <section key={`${d.fiscalName}-${d.dailySalesReportNumber}`} class="eod-day" data-testid={`day-${d.fiscalName}-${d.dailySalesReportNumber}`}>
          <div class="eod-register-head">
            <b>
              {d.fiscalName} · {t('dayNumber', { n: d.dailySalesReportNumber })}
            </b>
            {d.isOpen === null ? <Badge>{t('unknown')}</Badge> : d.isOpen ? <Badge tone="info">{t('openDay')}</Badge> : <Badge tone="good">{t('closedDay')}</Badge>}
          </div>
          <Facts
            items={[
              [t('tickets'), <span data-testid="day-tickets">{quantity(d.tickets)}</span>],
              [t('total'), <b data-testid="day-total">{money(d.total)}</b>],
              [t('vat'), money(d.vatTotal)],
              [t('cashTaken'), <span data-testid="day-cash">{money(d.cashSales)}</span>],
            ]}
          />
          <div class="grid-2">
            <CompactTable label={t('payment')} cols={paymentCols(t('payment'))} rows={d.payments} rowKey={(p) => p.paymentTypeNumber} />
            <CompactTable
              label={t('vat')}
              testId="day-vat"
              scroll
              rows={d.vat}
              rowKey={(v) => v.rate}
              rowProps={(v) => ({ 'data-key': String(v.rate) })}
              cols={[
                { title: t('rate'), cell: (v) => `${quantity(v.rate)} %` },
                { title: t('base'), figure: true, cell: (v) => money(v.base) },
                { title: t('vat'), figure: true, cell: (v) => money(v.vat) },
                { title: t('withVat'), figure: true, cell: (v) => money(v.gross) },
              ]}
            />
          </div>
          {reports.length > 0 && (
            <CompactTable
              label={t('reports')}
              testId="day-reports"
              scroll
              rows={reports}
              rowKey={(r) => r.id}
              rowProps={(r) => ({ 'data-kind': r.kind })}
              cols={[
                { title: t('reports'), cell: (r) => <><b>{r.kind}</b> {dateTime(r.takenAt)}</> },
                { title: t('by'), cell: (r) => who(r.takenBy) },
                { title: t('receipts'), figure: true, cell: (r) => r.receipts },
                { title: t('total'), figure: true, cell: (r) => money(r.total) },
              ]}
            />
          )}
          {cashCounts.length > 0 && (
            <CompactTable
              label={t('counts')}
              testId="day-counts"
              scroll
              rows={cashCounts}
              rowKey={(c) => c.id}
              cols={[
                { title: t('counts'), cell: (c) => <>{time(c.countedAt)} · {c.shiftId ? t('ofShift', { register: c.deviceName ?? '' }) : t('ofDay')}</> },
                { title: t('by'), cell: (c) => who(c.countedBy) },
                { title: t('expected'), figure: true, cell: (c) => money(c.expected) },
                { title: t('counted'), figure: true, cell: (c) => money(c.counted) },
                { title: t('difference'), figure: true, cell: (c) => <span class={c.difference < 0 ? 'negative' : ''}>{money(c.difference)}</span> },
              ]}
            />
          )}
        </section>
      ))}
    </div>
  );
}

/** The day's or its month's sales for the accountant: POHODA XML or a CSV journal. */
function ExportStep({ day }: { day: string }) {
  const [ico, setIco] = useState(() => localStorage.getItem(ICO_KEY) ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, run] = useKeyedAction<string>();
  const { first: monthFrom, last: monthTo } = monthOf(day);
  const get = async (id: string, format: 'pohoda' | 'csv', from: string, to: string) => {
    if (format === 'pohoda' && !/^\d{1,15}$/.test(ico.trim())) return setError(t('icoNeeded'));
    setError(null);
    await run(id, async () => {
      if (format === 'pohoda') localStorage.setItem(ICO_KEY, ico.trim());
      const params = new URLSearchParams({ from, to, format, ...(format === 'pohoda' ? { ico: ico.trim() } : {}) });
      const file = await download(`/api/reports/export?${params}`, format === 'pohoda' ? 'application/xml' : 'text/csv', `${format}-${from}_${to}`);
      toast(t('downloaded', { file }));
    });
  };
  const buttons: Array<[string, string, 'pohoda' | 'csv', string, string]> = [
    ['pohoda-day', t('pohodaDay'), 'pohoda', day, day],
    ['pohoda-month', t('pohodaMonth'), 'pohoda', monthFrom, monthTo],
    ['csv-day', t('csvDay'), 'csv', day, day],
    ['csv-month', t('csvMonth'), 'csv', monthFrom, monthTo],
  ];
  return (
    <div class="stack">
      <p class="muted">{t('exportText')}</p>
      <div class="form-grid">
        <Field label={t('ico')} value={ico} onChange={(v) => setIco((v as string) ?? '')} error={error} hint={t('icoHint')} testId="export-ico" />
      </div>
      <div class="eod-actions">
        {buttons.map(([id, label, format, from, to]) => (
          <Button key={id} icon="download" busy={busy === id} onClick={() => void get(id, format, from, to)} data-testid={`export-${id}`}>
            {label}
          </Button>
        ))}
      </div>
    </div>
  );
}

/** The few styles of this page (the shared stylesheet is another's). */
const STYLE = `
.eod-date { align-items: end; }
.eod-registers { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 14px; }
.eod-register, .eod-fiscal, .eod-day { border: 1px solid var(--line, #d0d7de); border-radius: 10px; padding: 14px; display: flex; flex-direction: column; gap: 10px; }
.eod-register-head { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
.eod-actions { display: flex; gap: 8px; flex-wrap: wrap; }
.eod-inline { display: flex; gap: 10px; align-items: end; flex-wrap: wrap; }
.eod-inline .field { max-width: 220px; }
.eod-notes { display: grid; grid-template-columns: repeat(auto-fill, minmax(110px, 1fr)); gap: 8px; }
.eod-note { display: flex; flex-direction: column; gap: 4px; font-weight: 600; font-size: 14px; }
.eod-sum { font-size: 16px; }
.eod-form h3, .eod-report h3 { margin: 0; }
`;
