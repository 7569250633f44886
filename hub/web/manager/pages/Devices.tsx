/**
 * Devices: the registers, the kitchen printers and the fiscal printers with their status as the
 * hub reports it (refreshed every few seconds and on every change), a test print, and the X and
 * Z reports. An action this hub does not offer yet (404) says so instead of failing.
 *
 * Kitchen displays (issue 21): "Add a kitchen display" makes an order endpoint of type Tablet
 * (no address, no printer options; its amber and red minutes), then asks the hub for a pairing
 * code (POST /api/kds/pairings) and shows it big with its expiry and the link to open on the
 * tablet. Any Tablet endpoint can be paired again, or its minutes changed, from its row.
 *
 * Registers (issue 29): "Add a register" and each register's pairing live in RegisterPairing.tsx.
 */
import { useEffect, useState } from 'preact/hooks';
import { Fragment, type ComponentChildren } from 'preact';
import { confirm, Empty, LinkButton, PageHeader, useFormAction } from '../components/ui';
import { Badge, Button, Card, Notice, Spinner } from '../../shared/ui';
import { Field } from '../components/Field';
import { AddAndPair } from '../components/AddAndPair';
import { Icon } from '../../shared/Icon';
import { Pairing, type PairingCode } from '../components/Pairing';
import { api, ApiError, describeError, path, SLOW_TIMEOUT_MS } from '../lib/api';
import { useAll, useLoad } from '../lib/data';
import { collator, money, quantity } from '../lib/format';
import { useCan } from '../lib/session';
import { messages, plural } from '../../shared/i18n';
import type { Category, Device, FiscalDevice, Health, OrderEndpoint, Plu, PrinterStatus } from '../../shared/types';
import { deviceError, driverWord, endpointTypeWord, envWord } from '../lib/device-words';
import { AddRegister, isRegister, PairButton, PairedBadge, RegisterPairing } from './RegisterPairing';

const t = messages({
  switchedOff: { en: 'Switched off', sk: 'Vypnuté', cs: 'Vypnuto' },
  online: { en: 'Online', sk: 'Online', cs: 'Online' },
  offline: { en: 'Offline', sk: 'Offline', cs: 'Offline' },
  unknown: { en: 'Status unknown', sk: 'Stav neznámy', cs: 'Stav neznámý' },
  paperOk: { en: 'Paper OK', sk: 'Papier OK', cs: 'Papír OK' },
  paperLow: { en: 'Paper low', sk: 'Dochádza papier', cs: 'Dochází papír' },
  paperOut: { en: 'Out of paper', sk: 'Došiel papier', cs: 'Došel papír' },
  kitchenDisplay: { en: 'Kitchen display', sk: 'Kuchynský displej', cs: 'Kuchyňský displej' },
  coverOpen: { en: 'Cover open', sk: 'Otvorený kryt', cs: 'Otevřený kryt' },
  testPrint: { en: 'Test print', sk: 'Skúšobná tlač', cs: 'Zkušební tisk' },
  testSent: { en: 'A test page is on its way to {name}.', sk: 'Skúšobná strana ide na tlačiareň {name}.', cs: 'Zkušební stránka jde na tiskárnu {name}.' },
  noTest: { en: 'This hub cannot print a test page yet: the printing service does not offer it.', sk: 'Tento hub zatiaľ nevie vytlačiť skúšobnú stranu: tlačová služba to neponúka.', cs: 'Tento hub zatím neumí vytisknout zkušební stránku: tisková služba to nenabízí.' },
  lastError: { en: 'Last error: {error}', sk: 'Posledná chyba: {error}', cs: 'Poslední chyba: {error}' },
  receiptsTotal: { en: ' {receipts} receipts, {total}.', sk: ' Počet dokladov: {receipts}, spolu {total}.', cs: ' Počet dokladů: {receipts}, celkem {total}.' },
  xDone: { en: 'The X report is printed; the fiscal day stays open.{day}', sk: 'X report je vytlačený; fiškálny deň zostáva otvorený.{day}', cs: 'X report je vytištěný; fiskální den zůstává otevřený.{day}' },
  zDone: { en: 'The Z report{n} is printed: the fiscal day is closed.{day}', sk: 'Uzávierka{n} je vytlačená: fiškálny deň je uzavretý.{day}', cs: 'Uzávěrka{n} je vytištěná: fiskální den je uzavřený.{day}' },
  zNumber: { en: ' no. {n}', sk: ' č. {n}', cs: ' č. {n}' },
  noReport: { en: 'This hub cannot print {kind} reports yet: the fiscal service does not offer them.', sk: 'Tento hub zatiaľ nevie tlačiť {kind} reporty: fiškálna služba ich neponúka.', cs: 'Tento hub zatím neumí tisknout {kind} reporty: fiskální služba je nenabízí.' },
  fiscalMemory: { en: 'Fiscal memory {n}', sk: 'Fiškálna pamäť {n}', cs: 'Fiskální paměť {n}' },
  fiscalDay: { en: 'Fiscal day {n}', sk: 'Fiškálny deň {n}', cs: 'Fiskální den {n}' },
  xReport: { en: 'X report', sk: 'X report', cs: 'X report' },
  zReport: { en: 'Z report', sk: 'Uzávierka (Z)', cs: 'Uzávěrka (Z)' },
  zTitle: { en: 'Close the fiscal day on {name}?', sk: 'Uzavrieť fiškálny deň na {name}?', cs: 'Uzavřít fiskální den na {name}?' },
  zText: {
    en: 'The Z report ends the fiscal day: do it once, after the last receipt of the day. The next receipts belong to the next day.',
    sk: 'Uzávierka ukončí fiškálny deň: urobte ju raz, po poslednom doklade dňa. Ďalšie doklady patria do nasledujúceho dňa.', cs: 'Uzávěrka ukončí fiskální den: udělejte ji jednou, po posledním dokladu dne. Další doklady patří do následujícího dne.',
  },
  zConfirm: { en: 'Print Z report', sk: 'Vytlačiť uzávierku', cs: 'Vytisknout uzávěrku' },
  title: { en: 'Devices', sk: 'Zariadenia', cs: 'Zařízení' },
  subtitle: { en: 'Registers, kitchen printers and fiscal printers, as the hub sees them now.', sk: 'Pokladne, kuchynské tlačiarne a fiškálne tlačiarne, ako ich hub vidí práve teraz.', cs: 'Pokladny, kuchyňské tiskárny a fiskální tiskárny, jak je hub vidí právě teď.' },
  settings: { en: 'Device settings', sk: 'Nastavenia zariadení', cs: 'Nastavení zařízení' },
  healthError: { en: "The hub's status could not be read: {error}", sk: 'Stav hubu sa nepodarilo načítať: {error}', cs: 'Stav hubu se nepodařilo načíst: {error}' },
  registers: { en: 'Registers', sk: 'Pokladne', cs: 'Pokladny' },
  noRegisters: { en: 'No registers yet', sk: 'Zatiaľ žiadne pokladne', cs: 'Zatím žádné pokladny' },
  register: { en: 'Register', sk: 'Pokladňa', cs: 'Pokladna' },
  receiptsOn: { en: 'Receipts on {name}', sk: 'Doklady na {name}', cs: 'Doklady na {name}' },
  billsOn: { en: 'Bills on {name}', sk: 'Účty na {name}', cs: 'Účty na {name}' },
  printers: { en: 'Kitchen printers and displays', sk: 'Kuchynské tlačiarne a displeje', cs: 'Kuchyňské tiskárny a displeje' },
  noPrinters: { en: 'No kitchen printers', sk: 'Žiadne kuchynské tlačiarne', cs: 'Žádné kuchyňské tiskárny' },
  addUnder: { en: 'Add one under Settings › Devices.', sk: 'Pridajte ju v Nastavenia › Zariadenia.', cs: 'Přidejte ji v Nastavení › Zařízení.' },
  fiscal: { en: 'Fiscal printers', sk: 'Fiškálne tlačiarne', cs: 'Fiskální tiskárny' },
  noFiscal: { en: 'No fiscal printer', sk: 'Žiadna fiškálna tlačiareň', cs: 'Žádná fiskální tiskárna' },
  // Kitchen displays
  addDisplay: { en: 'Add a kitchen display', sk: 'Pridať kuchynský displej', cs: 'Přidat kuchyňský displej' },
  addDisplayHint: {
    en: 'A tablet in the kitchen that shows the orders of its own order endpoint. After adding it you get a pairing code to type on the tablet.',
    sk: 'Tablet v kuchyni, ktorý zobrazuje objednávky svojho výdajného miesta. Po pridaní dostanete párovací kód, ktorý zadáte na tablete.', cs: 'Tablet v kuchyni, který zobrazuje objednávky svého výdejního místa. Po přidání dostanete párovací kód, který zadáte na tabletu.',
  },
  name: { en: 'Name', sk: 'Názov', cs: 'Název' },
  namePlaceholder: { en: 'e.g. Kitchen', sk: 'napr. Kuchyňa', cs: 'např. Kuchyně' },
  amber: { en: 'Amber after (minutes)', sk: 'Oranžová po (minútach)', cs: 'Oranžová po (minutách)' },
  red: { en: 'Red after (minutes)', sk: 'Červená po (minútach)', cs: 'Červená po (minutách)' },
  beep: { en: 'Sound on each new order', sk: 'Zvuk pri každej novej objednávke', cs: 'Zvuk při každé nové objednávce' },
  minutesHint: { en: 'An order turns amber, then red, when it waits this long.', sk: 'Objednávka zoranžovie a potom sčervenie, keď čaká takto dlho.', cs: 'Objednávka zoranžoví a pak zčervená, když čeká takto dlouho.' },
  redBeforeAmber: { en: 'Red must not come before amber.', sk: 'Červená nemôže prísť skôr ako oranžová.', cs: 'Červená nemůže přijít dřív než oranžová.' },
  notANumber: { en: 'A number of minutes, 0 or more.', sk: 'Počet minút, 0 alebo viac.', cs: 'Počet minut, 0 nebo více.' },
  nameRequired: { en: 'A name is required.', sk: 'Názov je povinný.', cs: 'Název je povinný.' },
  cancel: { en: 'Cancel', sk: 'Zrušiť', cs: 'Zrušit' },
  save: { en: 'Save', sk: 'Uložiť', cs: 'Uložit' },
  edit: { en: 'Edit', sk: 'Upraviť', cs: 'Upravit' },
  saved: { en: 'Saved.', sk: 'Uložené.', cs: 'Uloženo.' },
  pair: { en: 'Pair a display', sk: 'Spárovať displej', cs: 'Spárovat displej' },
  amberRed: { en: 'amber {amber} min, red {red} min', sk: 'oranžová {amber} min, červená {red} min', cs: 'oranžová {amber} min, červená {red} min' },
  showsWhat: { en: 'Show what this gets', sk: 'Zobrazovať, čo dostáva', cs: 'Zobrazovat, co dostává' },
  showsWhatHint: { en: 'Every order that printer gets appears on the display too, also for products added later.', sk: 'Každá objednávka, ktorú dostane tá tlačiareň, sa zobrazí aj na displeji, aj pri neskôr pridaných produktoch.', cs: 'Každá objednávka, kterou dostane ta tiskárna, se zobrazí i na displeji, i u později přidaných produktů.' },
  nothing: { en: 'Only what I choose below', sk: 'Len to, čo vyberiem nižšie', cs: 'Jen to, co vyberu níže' },
  displayCategories: { en: 'And every product of these categories', sk: 'A každý produkt týchto kategórií', cs: 'A každý produkt těchto kategorií' },
  getsNothing: { en: 'This display gets no orders yet: choose a printer to follow or categories, or tick it on products.', sk: 'Tento displej zatiaľ nedostáva žiadne objednávky: vyberte tlačiareň, ktorú má nasledovať, alebo kategórie, prípadne ho zaškrtnite pri produktoch.', cs: 'Tento displej zatím nedostává žádné objednávky: vyberte tiskárnu, kterou má následovat, nebo kategorie, případně ho zaškrtněte u produktů.' },
  follows: { en: 'shows what {name} gets', sk: 'zobrazuje, čo dostáva {name}', cs: 'zobrazuje, co dostává {name}' },
});
const waitingOne = { en: '{n} waiting', sk: '{n} čaká', cs: '{n} čeká' };
const waitingFew = { en: '{n} waiting', sk: '{n} čakajú', cs: '{n} čekají' };
const waitingOther = { en: '{n} waiting', sk: '{n} čaká', cs: '{n} čeká' };

const POLL_MS = 5000;

/** Re-runs `reload` every few seconds while the page is visible: device status is not a stored change. */
function usePoll(reload: () => void) {
  useEffect(() => {
    const t = setInterval(() => document.visibilityState === 'visible' && reload(), POLL_MS);
    return () => clearInterval(t);
  }, [reload]);
}

type Tone = 'good' | 'warn' | 'bad' | 'neutral';

function onlineBadge(online: boolean | null | undefined, active: boolean) {
  if (!active) return <Badge tone="neutral">{t('switchedOff')}</Badge>;
  if (online === true) return <Badge tone="good">{t('online')}</Badge>;
  if (online === false) return <Badge tone="bad">{t('offline')}</Badge>;
  return <Badge tone="neutral">{t('unknown')}</Badge>;
}

function paperBadge(paper: string | null | undefined) {
  if (!paper || paper === 'unknown') return null;
  const tone: Tone = paper === 'ok' ? 'good' : paper === 'low' ? 'warn' : 'bad';
  return <Badge tone={tone}>{paper === 'ok' ? t('paperOk') : paper === 'low' ? t('paperLow') : t('paperOut')}</Badge>;
}

/** The action's result as a sentence, next to its buttons. */
function useAction() {
  const [result, setResult] = useState<{ tone: 'good' | 'bad' | 'warn'; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (id: string, call: () => Promise<unknown>, done: (r: unknown) => string, missing: string) => {
    setBusy(id);
    setResult(null);
    try {
      setResult({ tone: 'good', text: done(await call()) });
    } catch (e) {
      // "No endpoint at …" (or 405): the hub lacks the action; "… does not exist": the device is gone.
      const notOffered = e instanceof ApiError && (e.status === 405 || (e.status === 404 && !/does not exist/i.test(e.problem.detail ?? '')));
      setResult({ tone: notOffered ? 'warn' : 'bad', text: notOffered ? missing : describeError(e, missing) });
    } finally {
      setBusy(null);
    }
  };
  return { result, busy, run, clear: () => setResult(null) };
}

function DeviceRow({ icon, title, badges, facts, actions, children }: { icon: 'register' | 'printer' | 'fiscal'; title: string; badges: ComponentChildren; facts: ComponentChildren; actions?: ComponentChildren; children?: ComponentChildren }) {
  return (
    <li class="device" data-testid={`device-${title}`}>
      <span class="device-icon" aria-hidden="true">
        <Icon name={icon} size={24} />
      </span>
      <div class="device-main">
        <div class="device-title">
          <b>{title}</b>
          {badges}
        </div>
        <div class="device-facts">{facts}</div>
        {children}
      </div>
      {actions && <div class="device-actions">{actions}</div>}
    </li>
  );
}

/** The link a tablet opens: this page's own origin (the hub as the manager reaches it), /kds/<name>; percent-encoded (the QR code's, the link's target). */
const displayLink = (name: string) => `${location.origin}/kds/${encodeURIComponent(name)}`;
/** The same link as a person reads and types it: the display's name as written ("Kuchyňa", not "Kuchy%C5%88a"). */
const readableLink = (name: string) => `${location.origin}/kds/${name}`;

/** A kitchen display's pairing: a code for `name` (a Tablet endpoint) and the display's link. */
function DisplayPairing({ name, onClose }: { name: string; onClose: () => void }) {
  return (
    <Pairing
      name={name}
      request={() => api.post<PairingCode>('/api/kds/pairings', { orderEndpointName: name })}
      linkOf={() => ({ href: displayLink(name), text: readableLink(name) })}
      onClose={onClose}
    />
  );
}

/** Minutes as the endpoint stores them (strings), as a number for the form; what the display would not take (negative, not a number) is the default, as there. */
const minutesOf = (v: string | undefined, fallback: number) => {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) && n >= 0 ? n : fallback;
};

interface DisplayValues {
  name: string;
  amber: unknown;
  red: unknown;
  beep: boolean;
  /** The printer whose orders it shows too (the endpoint's mirrorOf). */
  mirrorOf: string | null;
  categoryNames: string[];
}

/** The fields of a kitchen display: no address and no printer options, its amber and red minutes and its sound. */
function DisplayFields({ v, set, errors, withName }: { v: DisplayValues; set: (next: Partial<DisplayValues>) => void; errors: Record<string, string | null>; withName: boolean }) {
  const endpoints = useAll<OrderEndpoint>('orderendpoints');
  const categories = useAll<Category>('categories', { sort: 'order,name' });
  const printers = (endpoints.data ?? []).filter((e) => e.type !== 'Tablet' && e.name !== v.name).map((e) => ({ value: e.name, label: e.name }));
  return (
    <div class="kds-form-fields">
      {withName && (
        <Field label={t('name')} value={v.name} onChange={(x) => set({ name: String(x ?? '') })} error={errors.name} required maxLength={64} placeholder={t('namePlaceholder')} testId="display-name" />
      )}
      <Field label={t('amber')} kind="number" value={v.amber} onChange={(x) => set({ amber: x })} error={errors.amber} min={0} testId="display-amber" />
      <Field label={t('red')} kind="number" value={v.red} onChange={(x) => set({ red: x })} error={errors.red} min={0} hint={t('minutesHint')} testId="display-red" />
      <Field label={t('beep')} kind="switch" value={v.beep} onChange={(x) => set({ beep: !!x })} testId="display-beep" />
      <Field
        label={t('showsWhat')}
        kind="select"
        emptyOption={t('nothing')}
        nullable
        value={v.mirrorOf ?? ''}
        onChange={(x) => set({ mirrorOf: (x as string | null) || null })}
        options={printers}
        hint={t('showsWhatHint')}
        testId="display-mirror"
        wide
      />
      {(categories.data ?? []).length > 0 && (
        <Field
          label={t('displayCategories')}
          kind="checklist"
          value={v.categoryNames}
          onChange={(x) => set({ categoryNames: x as string[] })}
          options={(categories.data ?? []).map((c) => ({ value: c.name, label: c.name }))}
          wide
        />
      )}
    </div>
  );
}

/** The settings a display's values make, or the errors per field. */
function displaySettings(v: DisplayValues, withName: boolean): { settings?: Record<string, string>; errors: Record<string, string | null> } {
  const errors: Record<string, string | null> = {};
  if (withName && !v.name.trim()) errors.name = t('nameRequired');
  const ok = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && x >= 0;
  if (!ok(v.amber)) errors.amber = t('notANumber');
  if (!ok(v.red)) errors.red = t('notANumber');
  else if (ok(v.amber) && (v.red as number) < (v.amber as number)) errors.red = t('redBeforeAmber');
  if (Object.keys(errors).length) return { errors };
  return { settings: { AmberAfterMinutes: String(v.amber), RedAfterMinutes: String(v.red), IsBeepEnabled: v.beep ? 'true' : 'false' }, errors };
}

const NEW_DISPLAY: DisplayValues = { name: '', amber: 5, red: 10, beep: true, mirrorOf: null, categoryNames: [] };

/** "Add a kitchen display": a Tablet endpoint (what it shows: a printer's orders, categories), then its pairing code. */
function AddDisplay({ onCreated }: { onCreated: (name: string) => void }) {
  const [v, setV] = useState<DisplayValues>(NEW_DISPLAY);
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const create = async () => {
    const made = displaySettings(v, true);
    setErrors(made.errors);
    if (!made.settings) return null;
    const name = v.name.trim();
    await api.post('/api/orderendpoints', { name, type: 'Tablet', settings: made.settings, mirrorOf: v.mirrorOf, categoryNames: v.categoryNames });
    setV(NEW_DISPLAY);
    return name;
  };
  return (
    <AddAndPair label={t('addDisplay')} hint={t('addDisplayHint')} testId="add-display" create={create} nameRefused={(message) => setErrors({ name: message })} onCreated={onCreated}>
      <DisplayFields v={v} set={(next) => setV({ ...v, ...next })} errors={errors} withName />
    </AddAndPair>
  );
}

/** A Tablet endpoint's minutes and sound, changed in place (no address, no printer options). */
function EditDisplay({ p, onClose }: { p: OrderEndpoint; onClose: () => void }) {
  const [v, setV] = useState<DisplayValues>({
    name: p.name,
    amber: minutesOf(p.settings.AmberAfterMinutes, 5),
    red: minutesOf(p.settings.RedAfterMinutes, 10),
    beep: (p.settings.IsBeepEnabled ?? '').toLowerCase() === 'true',
    mirrorOf: p.mirrorOf ?? null,
    categoryNames: p.categoryNames ?? [],
  });
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const { busy, failure: error, run } = useFormAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const made = displaySettings(v, false);
    setErrors(made.errors);
    if (!made.settings) return;
    await run(async () => {
      await api.put(path('orderendpoints', p.name), { ...p, settings: { ...p.settings, ...made.settings }, mirrorOf: v.mirrorOf, categoryNames: v.categoryNames });
      onClose();
    });
  };
  return (
    <form class="kds-form" onSubmit={(e) => void submit(e)} data-testid="edit-display-form">
      <DisplayFields v={v} set={(next) => setV({ ...v, ...next })} errors={errors} withName={false} />
      {error && <Notice tone="bad">{error}</Notice>}
      <div class="kds-form-actions">
        <Button type="submit" variant="primary" small busy={busy}>
          {t('save')}
        </Button>
        <Button variant="ghost" small onClick={onClose}>
          {t('cancel')}
        </Button>
      </div>
    </form>
  );
}

function Printer({ p, health, pairing, onPair, namedByPlus }: { p: OrderEndpoint; health: NonNullable<Health['printers']>[number] | undefined; pairing: boolean; onPair: (name: string | null) => void; namedByPlus: boolean }) {
  const can = useCan();
  const action = useAction();
  const [editing, setEditing] = useState(false);
  const tablet = p.type === 'Tablet';
  // The printing service's status endpoint, where it exists; /api/health otherwise. A display prints nothing.
  const status = useLoad<PrinterStatus | null>(tablet ? null : `status:${p.name}`, (signal) =>
    api.get<PrinterStatus>(`${path('orderendpoints', p.name)}/status`, signal).catch((e: unknown) => {
      if (e instanceof ApiError && (e.status === 404 || e.status === 405)) return null;
      throw e;
    }),
  );
  usePoll(status.reload);
  // Health reports a printer's status as the printing service's summary, or 'unknown' without one.
  const fromHealth = health && typeof health.status === 'object' ? (health.status as Partial<PrinterStatus>) : undefined;
  const s: Partial<PrinterStatus> = tablet ? {} : { ...fromHealth, ...(status.data ?? {}) };
  const online = typeof s.online === 'boolean' ? s.online : null;
  const queue = tablet ? 0 : (s.queueDepth ?? health?.queueDepth ?? 0);
  // A display's session gets OrderProcess: only who holds it may hand it out (the hub says the same).
  const mayPair = can('OrderEndpointUpdate') && can('OrderProcess');
  return (
    <>
      <DeviceRow
        icon="printer"
        title={p.name}
        badges={
          <>
            {tablet ? <Badge tone="info">{t('kitchenDisplay')}</Badge> : onlineBadge(online, p.isActive)}
            {tablet && !p.isActive && <Badge>{t('switchedOff')}</Badge>}
            {paperBadge(s.paper)}
            {s.cover === 'open' && <Badge tone="bad">{t('coverOpen')}</Badge>}
            {queue > 0 && <Badge tone="warn">{plural(queue, { one: waitingOne, few: waitingFew, other: waitingOther })}</Badge>}
          </>
        }
        facts={
          tablet ? (
            <>
              <span>{t('amberRed', { amber: quantity(minutesOf(p.settings.AmberAfterMinutes, 5)), red: quantity(minutesOf(p.settings.RedAfterMinutes, 10)) })}</span>
              {p.mirrorOf && <span data-testid={`follows-${p.name}`}>{t('follows', { name: p.mirrorOf })}</span>}
              {(p.categoryNames ?? []).length > 0 && <span>{(p.categoryNames ?? []).join(', ')}</span>}
              <span class="mono">/kds/{p.name}</span>
            </>
          ) : (
            <>
              <span>{endpointTypeWord(p.type)}</span>
              <span class="mono">{p.address || '—'}</span>
            </>
          )
        }
        actions={
          tablet ? (
            mayPair && (
              <>
                <Button small icon="devices" disabled={!p.isActive} onClick={() => onPair(p.name)} data-testid={`pair-${p.name}`}>
                  {t('pair')}
                </Button>
                <Button small variant="ghost" onClick={() => setEditing(!editing)}>
                  {t('edit')}
                </Button>
              </>
            )
          ) : (
            <Button
              small
              icon="printer"
              busy={action.busy === 'test'}
              disabled={!p.isActive}
              onClick={() =>
                action.run(
                  'test',
                  () => api.post(`${path('orderendpoints', p.name)}/test`),
                  () => t('testSent', { name: p.name }),
                  t('noTest'),
                )
              }
            >
              {t('testPrint')}
            </Button>
          )
        }
      >
        {s.lastError && <div class="field-error">{t('lastError', { error: deviceError(s.lastError) })}</div>}
        {tablet && p.isActive && !p.mirrorOf && !(p.categoryNames ?? []).length && !namedByPlus && (
          <div class="field-hint warn-text" data-testid={`gets-nothing-${p.name}`}>
            {t('getsNothing')}
          </div>
        )}
        {action.result && (
          <Notice tone={action.result.tone} onClose={action.clear}>
            <span data-testid="device-message">{action.result.text}</span>
          </Notice>
        )}
      </DeviceRow>
      {/* Below the row, the card's whole width: the code must be read from a step away. */}
      {(editing || pairing) && (
        <li class="kds-extra">
          {editing && <EditDisplay p={p} onClose={() => setEditing(false)} />}
          {pairing && <DisplayPairing name={p.name} onClose={() => onPair(null)} />}
        </li>
      )}
    </>
  );
}

function Fiscal({ f }: { f: FiscalDevice }) {
  const can = useCan();
  const action = useAction();
  const report = (kind: 'x' | 'z') =>
    action.run(
      kind,
      () => api.post(`${path('fiscaldevices', f.name)}/reports/${kind}`, {}, SLOW_TIMEOUT_MS),
      (r) => {
        const { number: n, receipts, total } = (r ?? {}) as { number?: number; receipts?: number; total?: number };
        const day = receipts !== undefined && total !== undefined ? t('receiptsTotal', { receipts, total: money(total) }) : '';
        return kind === 'x' ? t('xDone', { day }) : t('zDone', { n: n ? t('zNumber', { n }) : '', day });
      },
      t('noReport', { kind: kind.toUpperCase() }),
    );
  const s = f.status;
  return (
    <DeviceRow
      icon="fiscal"
      title={f.name}
      badges={
        <>
          {onlineBadge(s?.online, f.isActive)}
          {paperBadge(s?.paper)}
        </>
      }
      facts={
        <>
          <span>{driverWord(f.driver)}</span>
          <span class="mono">{f.address}</span>
          {s?.fiscalMemorySerialNumber && <span>{t('fiscalMemory', { n: s.fiscalMemorySerialNumber })}</span>}
          {s?.dailySalesReportNumber != null && <span>{t('fiscalDay', { n: s.dailySalesReportNumber })}</span>}
        </>
      }
      actions={
        can('FiscalReport') && (
          <>
            <Button small busy={action.busy === 'x'} disabled={!f.isActive} onClick={() => report('x')}>
              {t('xReport')}
            </Button>
            <Button
              small
              variant="danger"
              busy={action.busy === 'z'}
              disabled={!f.isActive}
              onClick={async () => {
                const ok = await confirm({
                  title: t('zTitle', { name: f.name }),
                  text: t('zText'),
                  confirm: t('zConfirm'),
                  danger: true,
                });
                if (ok) void report('z');
              }}
            >
              {t('zReport')}
            </Button>
          </>
        )
      }
    >
      {s?.lastError && <div class="field-error">{t('lastError', { error: deviceError(s.lastError) })}</div>}
      {action.result && (
        <Notice tone={action.result.tone} onClose={action.clear}>
          <span data-testid="device-message">{action.result.text}</span>
        </Notice>
      )}
    </DeviceRow>
  );
}

/** The few styles of the kitchen-display and register forms and of a pairing code, kept with this page (the shared CSS is another's). */
const STYLE = `
.kds-form { display: flex; flex-direction: column; gap: 10px; margin-top: 12px; padding: 12px; border: 1px solid var(--line, #d0d7de); border-radius: 10px; }
.kds-form h3 { margin: 0; font-size: 1rem; }
.kds-form-fields { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 10px; align-items: start; }
.kds-form-actions, .pairing-actions { display: flex; gap: 8px; flex-wrap: wrap; }
.pairing { margin-top: 10px; padding: 14px; border-radius: 10px; border: 2px solid var(--accent, #2563eb); display: flex; flex-direction: column; gap: 8px; }
.pairing-label { font-weight: 600; }
.pairing-code { font-size: 3rem; font-weight: 800; letter-spacing: 0.12em; line-height: 1.1; }
.pairing-link a { word-break: break-all; }
.pairing-body { display: flex; flex-wrap: wrap; gap: 16px; align-items: center; justify-content: space-between; }
.pairing-text { display: flex; flex-direction: column; gap: 8px; flex: 1 1 220px; min-width: 0; }
.pairing .qr-code { flex: none; max-width: 100%; height: auto; background: #fff; border: 1px solid var(--line, #d0d7de); border-radius: 8px; }
.kds-add { margin-top: 12px; }
.kds-extra { list-style: none; padding: 0 0 14px; }
.kds-extra .kds-form { margin-top: 0; }
`;

export function Devices() {
  const can = useCan();
  const devices = useAll<Device>('devices');
  const printers = useAll<OrderEndpoint>('orderendpoints');
  const plus = useAll<Plu>('plus');
  const named = new Set((plus.data ?? []).flatMap((p) => p.orderEndpointNames));
  const fiscal = useAll<FiscalDevice>('fiscaldevices');
  const health = useLoad<Health>('health', (signal) => api.get<Health>('/api/health', signal), ['orderendpoints', 'fiscaldevices', 'orders']);
  const [pairing, setPairing] = useState<string | null>(null);
  const [pairingRegister, setPairingRegister] = useState<string | null>(null);
  usePoll(health.reload);
  usePoll(fiscal.reload);
  const healthOf = (name: string) => health.data?.printers?.find((p) => p.name === name);
  const sorted = <T extends { name: string }>(rows: T[] | null) => [...(rows ?? [])].sort((a, b) => collator.compare(a.name, b.name));
  const registers = sorted(devices.data).filter((d) => d.envName !== 'BackOffice');
  const other = sorted(devices.data).filter((d) => d.envName === 'BackOffice');
  const mayAdd = can('OrderEndpointCreate') && can('OrderEndpointUpdate');
  const mayAddRegister = can('DeviceCreate') && can('DeviceUpdate');
  const mayPairRegister = can('DeviceUpdate');
  const pairingDevice = registers.find((d) => d.name === pairingRegister);

  return (
    <div class="page">
      <style>{STYLE}</style>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <LinkButton href="/settings/devices" icon="settings">
            {t('settings')}
          </LinkButton>
        }
      />
      {health.error && <Notice tone="warn">{t('healthError', { error: health.error })}</Notice>}
      <div class="grid-2">
        <Card title={t('registers')}>
          {!devices.data ? (
            devices.error ? <Notice tone="bad">{devices.error}</Notice> : <Spinner />
          ) : registers.length + other.length === 0 ? (
            <Empty icon="register" title={t('noRegisters')} />
          ) : (
            <ul class="devices">
              {[...registers, ...other].map((d) => (
                <Fragment key={d.name}>
                  <DeviceRow
                    icon="register"
                    title={d.name}
                    badges={
                      <>
                        <Badge tone={isRegister(d) ? 'info' : 'neutral'}>{envWord(d.envName)}</Badge>
                        {!d.isActive && <Badge>{t('switchedOff')}</Badge>}
                        {isRegister(d) && <PairedBadge d={d} />}
                      </>
                    }
                    facts={
                      <>
                        {d.description && <span>{d.description}</span>}
                        {d.settings.DefaultFiscalName && <span>{t('receiptsOn', { name: d.settings.DefaultFiscalName })}</span>}
                        {d.settings.DefaultOrderEndpointName && <span>{t('billsOn', { name: d.settings.DefaultOrderEndpointName })}</span>}
                      </>
                    }
                    actions={isRegister(d) && mayPairRegister && <PairButton d={d} onPair={setPairingRegister} />}
                  />
                  {pairingDevice && pairingDevice.name === d.name && (
                    <li class="kds-extra">
                      <RegisterPairing device={pairingDevice} onClose={() => setPairingRegister(null)} />
                    </li>
                  )}
                </Fragment>
              ))}
            </ul>
          )}
          {mayAddRegister && (
            <div class="kds-add">
              <AddRegister
                onCreated={(name) => {
                  devices.reload();
                  setPairingRegister(name);
                }}
              />
            </div>
          )}
        </Card>
        <div class="stack">
          <Card title={t('printers')}>
            {!printers.data ? (
              printers.error ? <Notice tone="bad">{printers.error}</Notice> : <Spinner />
            ) : printers.data.length === 0 ? (
              <Empty icon="printer" title={t('noPrinters')}>
                {t('addUnder')}
              </Empty>
            ) : (
              <ul class="devices">
                {sorted(printers.data).map((p) => (
                  <Printer key={p.name} p={p} health={healthOf(p.name)} pairing={pairing === p.name} onPair={setPairing} namedByPlus={named.has(p.name)} />
                ))}
              </ul>
            )}
            {mayAdd && (
              <div class="kds-add">
                <AddDisplay
                  onCreated={(name) => {
                    printers.reload();
                    setPairing(name);
                  }}
                />
              </div>
            )}
          </Card>
          <Card title={t('fiscal')}>
            {!fiscal.data ? (
              fiscal.error ? <Notice tone="bad">{fiscal.error}</Notice> : <Spinner />
            ) : fiscal.data.length === 0 ? (
              <Empty icon="fiscal" title={t('noFiscal')}>
                {t('addUnder')}
              </Empty>
            ) : (
              <ul class="devices">
                {sorted(fiscal.data).map((f) => (
                  <Fiscal key={f.name} f={f} />
                ))}
              </ul>
            )}
          </Card>
        </div>
      </div>
    </div>
  );
}
