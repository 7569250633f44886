/** Settings: payment types, document numberings, users and their rights, and the devices' settings. */
import type { ComponentChildren } from 'preact';
import { PRESETS } from '../../../http/presets';
import { RIGHTS } from '../../../http/rights';
import { DataTable, type Column } from '../components/DataTable';
import { Editor } from '../components/Editor';
import { Field, type AnyForm, type Option } from '../components/Field';
import { Rows } from '../components/Rows';
import { Badge, Button, Card, PageHeader, Segmented, Tabs, Empty } from '../components/ui';
import { useOptions } from '../lib/data';
import { checks } from '../lib/form';
import { useQuery } from '../lib/router';
import { LANGUAGE_NAMES, LANGUAGES, pick } from '../../shared/i18n';
import { allowed, SETTINGS_TABS } from '../lib/access';
import { useCan } from '../lib/session';
import { ENUMS, options } from '../lib/enums';
import type { Device, FiscalDevice, HubUser, Numbering, OrderEndpoint, PaymentType, Stock } from '../../shared/types';
import { useEditParam } from './Catalog';

export function Settings({ tab: asked }: { tab: string }) {
  const can = useCan();
  const tabs = SETTINGS_TABS.filter((t) => allowed(t, can)).map((t) => ({ ...t, label: pick(t.label) }));
  const tab = tabs.some((t) => t.id === asked) ? asked : null;
  return (
    <div class="page">
      <PageHeader title="Settings" subtitle="How the shop is set up. Changes reach the registers at once." />
      <Tabs tabs={tabs} current={tab ?? ''} />
      {tab === null && <Empty icon="alert" title="This part is not part of your work here" />}
      {tab === 'payments' && <PaymentTypes />}
      {tab === 'numberings' && <Numberings />}
      {tab === 'users' && <Users />}
      {tab === 'devices' && <DeviceSettings />}
    </div>
  );
}

/** A list with a "New" button and an editor for the row opened: what every settings section is. */
/** The users form: a user as the hub answers it, plus the password, which the hub takes but never answers. */
type UserForm = HubUser & { password?: string };

function Section<T extends object>(props: {
  title: string;
  resource: string;
  createRight: string;
  newLabel: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  defaultSort?: string;
  empty: { title: string; text?: string };
  editor: (key: string | null, close: () => void) => ComponentChildren;
}) {
  const [edit, setEdit] = useEditParam();
  const can = useCan();
  return (
    <>
      <Card
        title={props.title}
        actions={
          can(props.createRight) && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')}>
              {props.newLabel}
            </Button>
          )
        }
      >
        <DataTable<T> resource={props.resource} label={props.title} columns={props.columns} rowKey={props.rowKey} defaultSort={props.defaultSort} onOpen={(r) => setEdit(props.rowKey(r))} selected={edit} empty={props.empty} />
      </Card>
      {edit && props.editor(edit === 'new' ? null : edit, () => setEdit(null))}
    </>
  );
}

const active = (on: boolean) => (on ? <Badge tone="good">Active</Badge> : <Badge>Inactive</Badge>);

function PaymentTypes() {
  return (
    <Section<PaymentType>
      title="Payment types"
      resource="paymenttypes"
      createRight="PaymentTypeCreate"
      newLabel="New payment type"
      rowKey={(p) => String(p.number)}
      columns={[
        { id: 'number', title: 'No.', sort: 'number', align: 'right', render: (p) => p.number },
        { id: 'name', title: 'Name', render: (p) => <b>{p.name || p.category}</b> },
        { id: 'category', title: 'Category', sort: 'category', render: (p) => p.category },
        { id: 'change', title: 'Gives change', render: (p) => (p.isChangeable ? 'Yes' : 'No') },
        { id: 'active', title: 'State', render: (p) => active(p.isActive) },
      ]}
      empty={{ title: 'No payment types' }}
      editor={(key, close) => (
        <Editor<PaymentType>
          resource="paymenttypes"
          editKey={key}
          noun="Payment type"
          title={(v, isNew) => (isNew ? 'New payment type' : v.name || `Payment type ${v.number}`)}
          defaults={{ number: null as unknown as number, name: '', category: 'Cash', isChangeable: false, isActive: true }}
          rights={{ create: 'PaymentTypeCreate', update: 'PaymentTypeUpdate', delete: 'PaymentTypeDelete' }}
          onClose={close}
        >
          {(form, { isNew }) => (
            <div class="form-grid">
              <Field form={form} name="number" label="Number" kind="number" integer min={1} max={2147483647} required disabled={!isNew} hint="The registers refer to it by this number." />
              <Field form={form} name="name" label="Name" required />
              <Field form={form} name="category" label="Category" kind="select" options={options(ENUMS.paymentCategory)} required />
              <Field form={form} name="isChangeable" label="Gives change" kind="switch" hint="An overpayment is handed back (cash)." />
              <Field form={form} name="isActive" label="Active" kind="switch" />
            </div>
          )}
        </Editor>
      )}
    />
  );
}

/** The next document number a numbering would issue now: what the manager wants to see. */
function preview(format: string, next: number): string {
  const d = new Date();
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return format
    .replace(/\{yyyy\}/g, String(d.getFullYear()))
    .replace(/\{yy\}/g, pad(d.getFullYear() % 100))
    .replace(/\{MM\}/g, pad(d.getMonth() + 1))
    .replace(/\{dd\}/g, pad(d.getDate()))
    .replace(/\{i(\d+)\}/g, (_, w: string) => pad(next, Number(w)));
}

const formatCheck = checks.pattern(/^(?:[^{}]|\{(?:yyyy|yy|MM|dd)\})*\{i(?:[1-9]|1\d|20)\}(?:[^{}]|\{(?:yyyy|yy|MM|dd)\})*$/, 'Use text and the tokens {yyyy} {yy} {MM} {dd}, with exactly one counter {iN}, e.g. P-{yyyy}{MM}{i4}.');
const lastEntry = (n: Numbering) => n.numberings[n.numberings.length - 1];

function Numberings() {
  return (
    <Section<Numbering>
      title="Document numberings"
      resource="stocktransfernumberings"
      createRight="StockTransferNumberingCreate"
      newLabel="New numbering"
      rowKey={(n) => n.id}
      columns={[
        { id: 'type', title: 'Document', sort: 'type', render: (n) => <b>{n.type}</b> },
        { id: 'format', title: 'Format', render: (n) => <span class="mono">{n.format}</span> },
        { id: 'next', title: 'Next number', render: (n) => <span class="mono">{preview(n.format, (lastEntry(n)?.currentNumber ?? 0) + 1)}</span> },
        { id: 'period', title: 'Restarts', render: (n) => (n.repeat && lastEntry(n) ? `every ${lastEntry(n).period.amount > 1 ? `${lastEntry(n).period.amount} ` : ''}${lastEntry(n).period.unit.toLowerCase()}` : 'never'), secondary: true },
        { id: 'active', title: 'State', render: (n) => active(n.isActive) },
      ]}
      empty={{ title: 'No numberings' }}
      editor={(key, close) => (
        <Editor<Numbering>
          resource="stocktransfernumberings"
          editKey={key}
          noun="Numbering"
          wide
          title={(v, isNew) => (isNew ? 'New numbering' : `${v.type} documents`)}
          subtitle={(v) => `Next: ${preview(v.format ?? '', (v.numberings?.[v.numberings.length - 1]?.currentNumber ?? 0) + 1)}`}
          defaults={{ id: '', isActive: true, type: 'Income', format: '', repeat: true, numberings: [{ isActive: true, startAt: new Date(new Date().getFullYear(), 0, 1).toISOString(), period: { unit: 'Month', amount: 1 }, currentNumber: 0 } as Numbering['numberings'][number]] }}
          rights={{ create: 'StockTransferNumberingCreate', update: 'StockTransferNumberingUpdate', delete: 'StockTransferNumberingDelete' }}
          toBody={(v, isNew) => {
            const { id, ...rest } = v;
            return isNew ? rest : { id, ...rest };
          }}
          onClose={close}
        >
          {(form) => (
            <>
              <div class="form-grid">
                <Field form={form} name="type" label="Document type" kind="select" options={options(ENUMS.transferType)} required />
                <Field form={form} name="format" label="Format" required validate={formatCheck} hint="e.g. P-{yyyy}{MM}{i4} → P-2026110001" />
                <Field form={form} name="repeat" label="Restart the counter each period" kind="switch" />
                <Field form={form} name="isActive" label="Active" kind="switch" hint="One active numbering per document type." />
              </div>
              <Rows form={form} name="numberings" label="Periods" addLabel="Add period" empty="No period: documents of this type cannot be numbered." newRow={() => ({ isActive: true, startAt: new Date().toISOString(), period: { unit: 'Month', amount: 1 }, currentNumber: 0 })}>
                {(p) => (
                  <>
                    <Field form={form} name={`${p}.startAt`} label="Starts" kind="date" required />
                    <Field form={form} name={`${p}.period.unit`} label="Period" kind="select" options={options(ENUMS.periodUnit)} required />
                    <Field form={form} name={`${p}.period.amount`} label="Length" kind="number" integer min={1} max={1000} required />
                    <Field form={form} name={`${p}.currentNumber`} label="Last number issued" kind="number" integer min={0} required />
                    <Field form={form} name={`${p}.isActive`} label="Active" kind="switch" />
                  </>
                )}
              </Rows>
            </>
          )}
        </Editor>
      )}
    />
  );
}

/** Rights grouped the way a manager thinks about them. */
const RIGHT_GROUPS: Array<[string, (r: string) => boolean]> = [
  ['Tickets and sales', (r) => r.startsWith('Ticket') || r === 'Storno'],
  ['Customers', (r) => r.startsWith('Customer')],
  ['Products and stock', (r) => /^(Plu|Stock|Modifier)/.test(r) && !r.startsWith('StockTransferNumbering')],
  ['Devices and printing', (r) => /^(Device|OrderEndpoint|FiscalDevice|FiscalReport|OrderProcess)/.test(r)],
  ['Administration', () => true],
];

function rightGroups(): Array<{ title: string; rights: Option[] }> {
  const left = new Set<string>(RIGHTS);
  return RIGHT_GROUPS.map(([title, test]) => {
    const rights = [...left].filter(test);
    rights.forEach((r) => left.delete(r));
    return { title, rights: rights.map((r) => ({ value: r, label: r.replace(/([a-z])([A-Z])/g, '$1 $2') })) };
  });
}

function RightsField({ form, disabled }: { form: AnyForm; disabled?: boolean }) {
  const chosen = (form.get('rights') as string[] | undefined) ?? [];
  return (
    <fieldset class="rights" disabled={disabled}>
      <legend>Rights</legend>
      <div class="rights-tools" role="group" aria-label="Presets">
        {PRESETS.map((p) => (
          <Button key={p.name} small variant="ghost" title={p.purpose} onClick={() => form.set('rights', [...p.rights])}>
            {p.name}
          </Button>
        ))}
        <Button small variant="ghost" onClick={() => form.set('rights', [...RIGHTS])}>
          All rights
        </Button>
        <Button small variant="ghost" onClick={() => form.set('rights', [])}>
          None
        </Button>
      </div>
      {rightGroups().map((g) => {
        const inGroup = new Set(g.rights.map((o) => o.value));
        return (
          <Field
            key={g.title}
            label={g.title}
            kind="checklist"
            options={g.rights}
            value={chosen.filter((r) => inGroup.has(r))}
            onChange={(v) => form.set('rights', [...chosen.filter((r) => !inGroup.has(r)), ...(v as string[])])}
          />
        );
      })}
    </fieldset>
  );
}

function Users() {
  return (
    <Section<HubUser>
      title="Users"
      resource="users"
      createRight="UserCreate"
      newLabel="New user"
      rowKey={(u) => u.id}
      defaultSort="userName"
      columns={[
        { id: 'userName', title: 'User name', sort: 'userName', render: (u) => <b>{u.userName}</b> },
        { id: 'name', title: 'Name', render: (u) => u.name || '—' },
        { id: 'rights', title: 'Rights', render: (u) => (u.rights.length === RIGHTS.length ? 'all' : `${u.rights.length}`) },
        { id: 'active', title: 'State', render: (u) => active(u.isActive) },
      ]}
      empty={{ title: 'No users' }}
      editor={(key, close) => (
        <Editor<UserForm>
          resource="users"
          editKey={key}
          noun="User"
          wide
          title={(v, isNew) => (isNew ? 'New user' : v.name || v.userName)}
          defaults={{ id: '', userName: '', name: '', isActive: true, rights: [], password: '', language: null }}
          rights={{ create: 'UserCreate', update: 'UserUpdate', delete: 'UserDelete' }}
          toBody={(v, isNew) => {
            const { id, password, ...rest } = v;
            // An empty password keeps the stored one (the hub never sends it back).
            // The select's empty choice is the shop's language: null to the hub.
            return { ...(isNew ? {} : { id }), ...rest, language: rest.language || null, ...(password ? { password } : {}) };
          }}
          onClose={close}
        >
          {(form, { isNew, canEdit }) => (
            <>
              <div class="form-grid">
                <Field form={form} name="userName" label="User name" required validate={checks.pattern(/^\S(.*\S)?$/, 'No spaces at the start or end.')} autoComplete="off" />
                <Field form={form} name="name" label="Full name" hint="Shown on tickets and kitchen orders." />
                <Field form={form} name="password" label={isNew ? 'Password' : 'New password'} kind="password" required={isNew} autoComplete="new-password" hint={isNew ? undefined : 'Leave empty to keep the current one.'} />
                <Field form={form} name="isActive" label="Can log in" kind="switch" />
                <Field
                  form={form}
                  name="language"
                  label="Language"
                  kind="select"
                  options={[{ value: '', label: "The shop's" }, ...LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))]}
                  hint="Of the manager's page and the kitchen display for this user."
                />
              </div>
              <RightsField form={form} disabled={!canEdit} />
            </>
          )}
        </Editor>
      )}
    />
  );
}

/** Settings are strings; a yes/no setting is "true", "false" or not set (the device's default). */
const YES_NO: Option[] = [
  { value: '', label: 'Default' },
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

/** Drops settings left empty, so "default" really is the device's default. */
function withSettings<T extends { settings: Record<string, string> }>(v: T): T {
  return { ...v, settings: Object.fromEntries(Object.entries(v.settings ?? {}).filter(([, s]) => s !== '' && s !== null && s !== undefined)) };
}

/** Settings of a device that this page does not know by name, editable as text. */
function OtherSettings({ form, known }: { form: AnyForm; known: string[] }) {
  const settings = (form.get('settings') as Record<string, string> | undefined) ?? {};
  const other = Object.keys(settings).filter((k) => !known.includes(k) && /^[^.[\]]+$/.test(k));
  return (
    <>
      {other.map((k) => (
        <Field key={k} form={form} name={`settings.${k}`} label={k} />
      ))}
    </>
  );
}

function DeviceSettings() {
  const [q, setQuery] = useQuery();
  const kind = q.get('kind') ?? 'registers';
  return (
    <>
      <Segmented
        label="Device kind"
        value={kind}
        onChange={(v) => setQuery({ kind: v === 'registers' ? null : v, edit: null, page: null, sort: null })}
        options={[
          { value: 'registers', label: 'Registers' },
          { value: 'printers', label: 'Kitchen printers' },
          { value: 'fiscal', label: 'Fiscal printers' },
        ]}
      />
      {kind === 'registers' && <Registers />}
      {kind === 'printers' && <Printers />}
      {kind === 'fiscal' && <FiscalPrinters />}
    </>
  );
}

const REGISTER_SETTINGS = ['DefaultFiscalName', 'DefaultOrderEndpointName', 'DefaultStockName', 'MaxQuantity', 'OpenedPrices'];

function Registers() {
  const fiscal = useOptions<FiscalDevice>('fiscaldevices', (f) => f.name);
  const printers = useOptions<OrderEndpoint>('orderendpoints', (p) => p.name);
  const stocks = useOptions<Stock>('stocks', (s) => s.name);
  return (
    <Section<Device>
      title="Registers and other devices"
      resource="devices"
      createRight="DeviceCreate"
      newLabel="New device"
      rowKey={(d) => d.name}
      columns={[
        { id: 'name', title: 'Name', sort: 'name', render: (d) => <b>{d.name}</b> },
        { id: 'env', title: 'Kind', sort: 'envName', render: (d) => d.envName },
        { id: 'fiscal', title: 'Receipts on', render: (d) => d.settings.DefaultFiscalName || '—', secondary: true },
        { id: 'printer', title: 'Bills on', render: (d) => d.settings.DefaultOrderEndpointName || '—', secondary: true },
        { id: 'active', title: 'State', render: (d) => active(d.isActive) },
      ]}
      empty={{ title: 'No devices' }}
      editor={(key, close) => (
        <Editor<Device>
          resource="devices"
          editKey={key}
          noun="Device"
          wide
          title={(v, isNew) => (isNew ? 'New device' : v.name)}
          defaults={{ name: '', isActive: true, envName: 'CashRegister', description: '', roles: [], preferences: {}, settings: {} }}
          rights={{ create: 'DeviceCreate', update: 'DeviceUpdate', delete: 'DeviceDelete' }}
          toBody={withSettings}
          onClose={close}
        >
          {(form, { isNew }) => (
            <>
              <div class="form-grid">
                <Field form={form} name="name" label="Name" required disabled={!isNew} hint={isNew ? 'Staff pick this name when they log in on the device.' : undefined} />
                <Field
                  form={form}
                  name="envName"
                  label="Kind"
                  kind="select"
                  options={options(ENUMS.envName, (e) => ({ CashRegister: 'Cash register', PDA: 'Waiter’s handheld (PDA)', BackOffice: 'Back office', Tool: 'Tool' })[e] ?? e)}
                  required
                />
                <Field form={form} name="description" label="Description" wide />
                <Field form={form} name="isActive" label="Active" kind="switch" />
              </div>
              <h3>Settings</h3>
              <div class="form-grid">
                <Field form={form} name="settings.DefaultFiscalName" label="Fiscal printer for receipts" kind="select" emptyOption="None" options={fiscal} />
                <Field form={form} name="settings.DefaultOrderEndpointName" label="Printer for bills" kind="select" emptyOption="None" options={printers} />
                <Field form={form} name="settings.DefaultStockName" label="Stock it sells from" kind="select" emptyOption="None" options={stocks} />
                <Field form={form} name="settings.MaxQuantity" label="Largest quantity per item" validate={checks.pattern(/^\d+([.,]\d+)?$/, 'Enter a number.')} />
                <Field form={form} name="settings.OpenedPrices" label="Staff may type prices" kind="select" options={YES_NO} />
                <OtherSettings form={form} known={REGISTER_SETTINGS} />
              </div>
            </>
          )}
        </Editor>
      )}
    />
  );
}

const PRINTER_SETTINGS = ['IsBeepEnabled', 'HighlightOrderNumber', 'DoubleHeightFont', 'DoubleWidthFont'];

function Printers() {
  return (
    <Section<OrderEndpoint>
      title="Kitchen printers and displays"
      resource="orderendpoints"
      createRight="OrderEndpointCreate"
      newLabel="New printer"
      rowKey={(p) => p.name}
      columns={[
        { id: 'name', title: 'Name', sort: 'name', render: (p) => <b>{p.name}</b> },
        { id: 'type', title: 'Model', sort: 'type', render: (p) => p.type },
        { id: 'address', title: 'Address', render: (p) => <span class="mono">{p.address || '—'}</span> },
        { id: 'active', title: 'State', render: (p) => active(p.isActive) },
      ]}
      empty={{ title: 'No kitchen printers' }}
      editor={(key, close) => (
        <Editor<OrderEndpoint>
          resource="orderendpoints"
          editKey={key}
          noun="Printer"
          wide
          title={(v, isNew) => (isNew ? 'New kitchen printer' : v.name)}
          defaults={{ name: '', isActive: true, type: 'TM88', address: 'tcp://', settings: {} }}
          rights={{ create: 'OrderEndpointCreate', update: 'OrderEndpointUpdate', delete: 'OrderEndpointDelete' }}
          toBody={withSettings}
          onClose={close}
        >
          {(form, { isNew }) => (
            <>
              <div class="form-grid">
                <Field form={form} name="name" label="Name" required disabled={!isNew} />
                <Field form={form} name="type" label="Model" kind="select" options={options(ENUMS.orderEndpointType, (t) => (t === 'Tablet' ? 'Tablet (kitchen display)' : t))} required />
                <Field
                  form={form}
                  name="address"
                  label="Address"
                  wide
                  required={form.values.type !== 'Tablet'}
                  validate={(v, all) => (all.type !== 'Tablet' && typeof v === 'string' && !/^(tcp:\/\/[^\s/:]+(:\d{1,5})?|serial:\S+)$/.test(v) ? 'Like tcp://192.168.1.50:9100 or serial:/dev/ttyUSB0?baudRate=19200' : null)}
                  hint="tcp://192.168.1.50:9100 for a network printer, serial:/dev/ttyUSB0?baudRate=19200 for a cable."
                />
                <Field form={form} name="isActive" label="Active" kind="switch" hint="An inactive printer gets no orders." />
              </div>
              <h3>Kitchen ticket</h3>
              <div class="form-grid">
                <Field form={form} name="settings.IsBeepEnabled" label="Beep on a new order" kind="select" options={YES_NO} />
                <Field form={form} name="settings.HighlightOrderNumber" label="Highlight the order number" kind="select" options={YES_NO} />
                <Field form={form} name="settings.DoubleHeightFont" label="Tall letters" kind="select" options={YES_NO} />
                <Field form={form} name="settings.DoubleWidthFont" label="Wide letters" kind="select" options={YES_NO} />
                <OtherSettings form={form} known={PRINTER_SETTINGS} />
              </div>
            </>
          )}
        </Editor>
      )}
    />
  );
}

function FiscalPrinters() {
  return (
    <Section<FiscalDevice>
      title="Fiscal printers"
      resource="fiscaldevices"
      createRight="FiscalDeviceCreate"
      newLabel="New fiscal printer"
      rowKey={(f) => f.name}
      columns={[
        { id: 'name', title: 'Name', sort: 'name', render: (f) => <b>{f.name}</b> },
        { id: 'driver', title: 'Driver', sort: 'driver', render: (f) => f.driver },
        { id: 'address', title: 'Address', render: (f) => <span class="mono">{f.address}</span> },
        { id: 'day', title: 'Fiscal day', render: (f) => f.status?.dailySalesReportNumber ?? '—', secondary: true },
        { id: 'active', title: 'State', render: (f) => active(f.isActive) },
      ]}
      empty={{ title: 'No fiscal printers' }}
      editor={(key, close) => (
        <Editor<FiscalDevice>
          resource="fiscaldevices"
          editKey={key}
          noun="Fiscal printer"
          wide
          title={(v, isNew) => (isNew ? 'New fiscal printer' : v.name)}
          subtitle={(v) => (v.status?.fiscalMemorySerialNumber ? `Fiscal memory ${v.status.fiscalMemorySerialNumber}` : undefined)}
          defaults={{ name: '', isActive: true, driver: 'datecs', address: 'tcp://', settings: {} }}
          rights={{ create: 'FiscalDeviceCreate', update: 'FiscalDeviceUpdate', delete: 'FiscalDeviceDelete' }}
          toBody={withSettings}
          onClose={close}
        >
          {(form, { isNew }) => (
            <div class="form-grid">
              <Field form={form} name="name" label="Name" required disabled={!isNew} />
              <Field
                form={form}
                name="driver"
                label="Driver"
                kind="select"
                options={options(ENUMS.fiscalDriver, (d) => ({ datecs: 'Datecs fiscal printer', escpos: 'Receipt printer (ESC/POS)', ekasa: 'eKasa (PORTOS local API)', simulator: 'Simulator (demo)' })[d] ?? d)}
                required
              />
              <Field
                form={form}
                name="address"
                label="Address"
                required
                wide
                validate={(v, all) => (all.driver === 'simulator' ? (typeof v === 'string' && !/^sim:.+/.test(v) ? 'The simulator takes sim:<any name>.' : null) : typeof v === 'string' && !/^(tcp:\/\/[^\s/:]+(:\d{1,5})?|serial:\S+)$/.test(v) ? 'Like tcp://192.168.1.60:4999 or serial:/dev/ttyUSB0?baudRate=115200' : null)}
              />
              <Field form={form} name="isActive" label="Active" kind="switch" />
              <OtherSettings form={form} known={[]} />
            </div>
          )}
        </Editor>
      )}
    />
  );
}
