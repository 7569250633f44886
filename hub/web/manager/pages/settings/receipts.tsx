/** Settings › Receipts & e-mail (issue 21): the shop's header on receipts and the mail server e-mail receipts go through. */
import { useEffect } from 'preact/hooks';
import { Field, type AnyForm } from '../../components/Field';
import { toast } from '../../components/ui';
import { Button, Card, Notice, Spinner } from '../../../shared/ui';
import { useLoad } from '../../lib/data';
import { useForm } from '../../lib/form';
import { messages } from '../../../shared/i18n';
import { refreshSession, useCan } from '../../lib/session';
import { api, ApiError } from '../../lib/api';
import { rightWord } from '../../lib/rights-words';
import type { ReceiptSettings, ReceiptSettingsInput } from '../../lib/wire';
import { addressOf, isEmailAddress } from '../../../../core/rules';

const t = messages({
  receiptsTitle: { en: 'Receipts sent by e-mail', sk: 'Doklady posielané e-mailom', cs: 'Doklady posílané e-mailem' },
  shopHeader: { en: 'Shop header', sk: 'Hlavička prevádzky', cs: 'Hlavička provozovny' },
  shopName: { en: 'Shop name', sk: 'Názov prevádzky', cs: 'Název provozovny' },
  shopNameHint: { en: 'Empty: {name} (the hub’s setting).', sk: 'Prázdne: {name} (nastavenie hubu).', cs: 'Prázdné: {name} (nastavení hubu).' },
  addressLines: { en: 'Header lines', sk: 'Riadky hlavičky', cs: 'Řádky hlavičky' },
  footerLines: { en: 'Footer lines', sk: 'Riadky päty', cs: 'Řádky patičky' },
  linesHint: { en: 'One line per row: address, company ID, VAT ID…', sk: 'Každý riadok zvlášť: adresa, IČO, IČ DPH…', cs: 'Každý řádek zvlášť: adresa, IČO, DIČ…' },
  footerHint: { en: 'e.g. Thank you for your visit.', sk: 'napr. Ďakujeme za návštevu.', cs: 'např. Děkujeme za návštěvu.' },
  smtpTitle: { en: 'Mail server (SMTP)', sk: 'Poštový server (SMTP)', cs: 'Poštovní server (SMTP)' },
  ownServer: { en: 'Use this mail server', sk: 'Použiť tento poštový server', cs: 'Použít tento poštovní server' },
  ownServerHint: { en: 'Off: the server the hub was installed with, if any.', sk: 'Vypnuté: server nastavený pri inštalácii hubu, ak existuje.', cs: 'Vypnuto: server nastavený při instalaci hubu, pokud existuje.' },
  host: { en: 'Server', sk: 'Server', cs: 'Server' },
  port: { en: 'Port', sk: 'Port', cs: 'Port' },
  portHint: { en: 'Empty: 465 with TLS from the start, else 587.', sk: 'Prázdne: 465 pri TLS od začiatku, inak 587.', cs: 'Prázdné: 465 při TLS od začátku, jinak 587.' },
  tls: { en: 'Encryption', sk: 'Šifrovanie', cs: 'Šifrování' },
  tlsImplicit: { en: 'TLS from the start (port 465)', sk: 'TLS od začiatku (port 465)', cs: 'TLS od začátku (port 465)' },
  tlsRequired: { en: 'STARTTLS, required', sk: 'STARTTLS, povinné', cs: 'STARTTLS, povinné' },
  tlsOpportunistic: { en: 'STARTTLS when offered', sk: 'STARTTLS, ak ho server ponúka', cs: 'STARTTLS, pokud ho server nabízí' },
  tlsOff: { en: 'None (plain text)', sk: 'Žiadne (nešifrované)', cs: 'Žádné (nešifrované)' },
  smtpUser: { en: 'User', sk: 'Používateľ', cs: 'Uživatel' },
  smtpPassword: { en: 'Password', sk: 'Heslo', cs: 'Heslo' },
  passwordStored: { en: 'A password is stored: leave empty to keep it.', sk: 'Heslo je uložené: nechajte prázdne, ak má zostať.', cs: 'Heslo je uložené: nechte prázdné, pokud má zůstat.' },
  passwordNone: { en: 'No password stored.', sk: 'Nie je uložené žiadne heslo.', cs: 'Není uloženo žádné heslo.' },
  from: { en: 'Sender (From)', sk: 'Odosielateľ (From)', cs: 'Odesílatel (From)' },
  fromCheck: { en: 'An e-mail address: a@b.c or Name <a@b.c>.', sk: 'E-mailová adresa: a@b.c alebo Meno <a@b.c>.', cs: 'E-mailová adresa: a@b.c nebo Jméno <a@b.c>.' },
  fromHint: { en: 'e.g. Bistro <pokladna@bistro.sk>', sk: 'napr. Bistro <pokladna@bistro.sk>', cs: 'např. Bistro <pokladna@bistro.sk>' },
  inUse: { en: 'In use now', sk: 'Teraz sa používa', cs: 'Nyní se používá' },
  srcSettings: { en: 'the server set here', sk: 'server nastavený tu', cs: 'server nastavený zde' },
  srcEnvironment: { en: 'the server the hub was installed with', sk: 'server nastavený pri inštalácii hubu', cs: 'server nastavený při instalaci hubu' },
  srcNone: { en: 'no server: e-mail receipts are not sent', sk: 'žiadny server: doklady sa e-mailom neposielajú', cs: 'žádný server: doklady se e-mailem neposílají' },
  save: { en: 'Save changes', sk: 'Uložiť zmeny', cs: 'Uložit změny' },
  saved: { en: 'Receipt settings saved.', sk: 'Nastavenia dokladov uložené.', cs: 'Nastavení dokladů uloženo.' },
  needsRight: { en: 'Changing this needs the right “{right}”.', sk: 'Na zmenu potrebujete právo „{right}“.', cs: 'Ke změně potřebujete právo „{right}“.' },
});

interface ReceiptForm {
  shopName: string;
  addressLines: string;
  footerLines: string;
  ownServer: boolean;
  host: string;
  port: number | string | null;
  tls: 'Implicit' | 'Required' | 'Opportunistic' | 'Off';
  user: string;
  password: string;
  from: string;
}

const toForm = (s: ReceiptSettings): ReceiptForm => ({
  shopName: s.shopName ?? '',
  addressLines: s.addressLines.join('\n'),
  footerLines: s.footerLines.join('\n'),
  ownServer: s.smtp !== null,
  host: s.smtp?.host ?? '',
  port: s.smtp?.port ?? null,
  tls: s.smtp?.tls ?? 'Opportunistic',
  user: s.smtp?.user ?? '',
  password: '',
  from: s.smtp?.from ?? '',
});

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

function toBody(v: ReceiptForm, version: number): ReceiptSettingsInput {
  return {
    shopName: v.shopName.trim() || null,
    addressLines: lines(v.addressLines),
    footerLines: lines(v.footerLines),
    smtp: v.ownServer
      ? {
          host: v.host.trim(),
          port: typeof v.port === 'number' ? v.port : null,
          tls: v.tls,
          user: v.user.trim() || null,
          // Write-only: left out, the hub keeps the stored password.
          ...(v.password ? { password: v.password } : {}),
          from: v.from.trim() || null,
        }
      : null,
    _v: version,
  };
}

const TLS_LABELS = () => ({ Implicit: t('tlsImplicit'), Required: t('tlsRequired'), Opportunistic: t('tlsOpportunistic'), Off: t('tlsOff') });

/** The sender as the hub checks it (hub/core/rules.ts): an address, or a name with the address in <>. */
const fromCheck = (v: unknown) => (typeof v === 'string' && v.trim() && !isEmailAddress(addressOf(v)) ? t('fromCheck') : null);

export function ReceiptSettingsTab() {
  const can = useCan();
  const loaded = useLoad<ReceiptSettings>('/api/receipts/settings', (signal) => api.get<ReceiptSettings>('/api/receipts/settings', signal), ['receipts/settings']);
  const form = useForm<ReceiptForm>(toForm({ shopName: null, addressLines: [], footerLines: [], smtp: null, effective: { shopName: '', smtpSource: 'None', smtp: null }, _v: 0 }));
  const s = loaded.data;
  // The stored settings fill the form, unless the manager is in the middle of changing them.
  useEffect(() => {
    if (s && !form.dirty) form.reset(toForm(s));
  }, [s]);
  const canEdit = can('ReceiptSettingsUpdate');
  if (!s) return loaded.error ? <Notice tone="bad">{loaded.error}</Notice> : <Spinner />;
  const own = form.values.ownServer;
  const save = () =>
    form.submit(async (v) => {
      try {
        const answer = await api.put<ReceiptSettings>('/api/receipts/settings', toBody(v, s._v) as unknown as Record<string, unknown>);
        form.reset(toForm(answer));
        loaded.reload();
        toast(t('saved'));
      } catch (e) {
        if (e instanceof ApiError && e.isMissingRight) void refreshSession().catch(() => undefined);
        throw e;
      }
    });
  const tls = TLS_LABELS();
  const source = { Settings: t('srcSettings'), Environment: t('srcEnvironment'), None: t('srcNone') }[s.effective.smtpSource];
  const eff = s.effective.smtp;
  return (
    <Card title={t('receiptsTitle')}>
      <form
        class="form"
        noValidate
        data-testid="receipt-settings"
        onSubmit={(e) => {
          e.preventDefault();
          if (canEdit) void save();
        }}
      >
        {!canEdit && <Notice tone="info">{t('needsRight', { right: rightWord('ReceiptSettingsUpdate') })}</Notice>}
        {form.formError && (
          <Notice tone="bad">
            <span data-testid="form-error">{form.formError}</span>
          </Notice>
        )}
        <fieldset class="form-fields stack" disabled={!canEdit}>
          <h3>{t('shopHeader')}</h3>
          <div class="form-grid">
            <Field form={form as unknown as AnyForm} name="shopName" label={t('shopName')} hint={t('shopNameHint', { name: s.effective.shopName })} maxLength={200} testId="rs-shopName" />
            <span />
            <Field form={form as unknown as AnyForm} name="addressLines" label={t('addressLines')} kind="textarea" hint={t('linesHint')} testId="rs-addressLines" />
            <Field form={form as unknown as AnyForm} name="footerLines" label={t('footerLines')} kind="textarea" hint={t('footerHint')} testId="rs-footerLines" />
          </div>
          <h3>{t('smtpTitle')}</h3>
          <Notice tone={s.effective.smtpSource === 'None' ? 'warn' : 'info'}>
            <span data-testid="smtp-in-use">
              {t('inUse')}: {source}
              {eff ? ` — ${eff.host}:${eff.port}` : ''}
            </span>
          </Notice>
          <div class="form-grid">
            <Field form={form as unknown as AnyForm} name="ownServer" label={t('ownServer')} kind="switch" hint={t('ownServerHint')} testId="rs-ownServer" />
            <span />
            {own && (
              <>
                <Field form={form as unknown as AnyForm} name="host" label={t('host')} required placeholder="smtp.example.com" testId="rs-host" />
                <Field form={form as unknown as AnyForm} name="port" label={t('port')} kind="number" integer min={1} max={65535} nullable hint={t('portHint')} testId="rs-port" />
                <Field form={form as unknown as AnyForm} name="tls" label={t('tls')} kind="select" options={Object.entries(tls).map(([value, label]) => ({ value, label }))} required testId="rs-tls" />
                <Field form={form as unknown as AnyForm} name="user" label={t('smtpUser')} autoComplete="off" testId="rs-user" />
                <Field form={form as unknown as AnyForm} name="password" label={t('smtpPassword')} kind="password" autoComplete="new-password" hint={s.smtp?.passwordSet ? t('passwordStored') : t('passwordNone')} testId="rs-password" />
                <Field form={form as unknown as AnyForm} name="from" label={t('from')} hint={t('fromHint')} validate={fromCheck} testId="rs-from" />
              </>
            )}
          </div>
        </fieldset>
        {canEdit && (
          <div>
            <Button type="submit" variant="primary" icon="check" busy={form.busy} data-testid="save">
              {t('save')}
            </Button>
          </div>
        )}
      </form>
    </Card>
  );
}
