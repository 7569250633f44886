/** Settings › Users & rights: the users, their password and PIN, language and rights (with the hub's presets). */
import { PRESETS } from '../../../../http/presets';
import { RIGHTS } from '../../../../http/rights';
import { Editor } from '../../components/Editor';
import { Field, type AnyForm, type Option } from '../../components/Field';
import { Button } from '../../../shared/ui';
import { checks } from '../../lib/form';
import { LANGUAGE_NAMES, LANGUAGES, messages, pick, type Entry } from '../../../shared/i18n';
import type { HubUser } from '../../../shared/types';
import { rightWord } from '../../lib/rights-words';
import { active, Section } from './section';

const t = messages({
  state: { en: 'State', sk: 'Stav', cs: 'Stav' },
  yes: { en: 'Yes', sk: 'Áno', cs: 'Ano' },
  users: { en: 'Users', sk: 'Používatelia', cs: 'Uživatelé' },
  user: { en: 'User', sk: 'Používateľ', cs: 'Uživatel' },
  newUser: { en: 'New user', sk: 'Nový používateľ', cs: 'Nový uživatel' },
  userName: { en: 'User name', sk: 'Používateľské meno', cs: 'Uživatelské jméno' },
  fullName: { en: 'Full name', sk: 'Celé meno', cs: 'Celé jméno' },
  personName: { en: 'Name', sk: 'Meno', cs: 'Jméno' },
  fullNameHint: { en: 'Shown on tickets and kitchen orders.', sk: 'Zobrazuje sa na účtoch a objednávkach v kuchyni.', cs: 'Zobrazuje se na účtech a objednávkách v kuchyni.' },
  rights: { en: 'Rights', sk: 'Práva', cs: 'Práva' },
  allRightsShort: { en: 'all', sk: 'všetky', cs: 'všechna' },
  noUsers: { en: 'No users', sk: 'Žiadni používatelia', cs: 'Žádní uživatelé' },
  noSpaces: { en: 'No spaces at the start or end.', sk: 'Bez medzier na začiatku a na konci.', cs: 'Bez mezer na začátku a na konci.' },
  password: { en: 'Password', sk: 'Heslo', cs: 'Heslo' },
  newPassword: { en: 'New password', sk: 'Nové heslo', cs: 'Nové heslo' },
  keepPassword: { en: 'Leave empty to keep the current one.', sk: 'Nechajte prázdne, ak má zostať súčasné.', cs: 'Nechte prázdné, pokud má zůstat současné.' },
  pin: { en: 'PIN for the registers', sk: 'PIN pre pokladne', cs: 'PIN pro pokladny' },
  newPin: { en: 'New PIN', sk: 'Nový PIN', cs: 'Nový PIN' },
  pinHint: { en: '4 to 8 digits: a quick login on a paired register. The password still works.', sk: '4 až 8 číslic: rýchle prihlásenie na spárovanej pokladni. Heslo funguje aj naďalej.', cs: '4 až 8 číslic: rychlé přihlášení na spárované pokladně. Heslo funguje i nadále.' },
  hasPinHint: { en: 'This user has a PIN. Leave empty to keep it.', sk: 'Tento používateľ má PIN. Nechajte prázdne, ak má zostať.', cs: 'Tento uživatel má PIN. Nechte prázdné, pokud má zůstat.' },
  pinDigits: { en: 'A PIN is 4 to 8 digits.', sk: 'PIN má 4 až 8 číslic.', cs: 'PIN má 4 až 8 číslic.' },
  removePin: { en: 'Remove the PIN', sk: 'Odstrániť PIN', cs: 'Odstranit PIN' },
  pinColumn: { en: 'PIN', sk: 'PIN', cs: 'PIN' },
  canLogIn: { en: 'Can log in', sk: 'Môže sa prihlásiť', cs: 'Může se přihlásit' },
  language: { en: 'Language', sk: 'Jazyk', cs: 'Jazyk' },
  shopsLanguage: { en: "The shop's", sk: 'Podľa prevádzky', cs: 'Podle provozovny' },
  languageHint: { en: "Of the manager's page and the kitchen display for this user.", sk: 'Stránky pre vedúceho a kuchynského displeja pre tohto používateľa.', cs: 'Stránky pro vedoucího a kuchyňského displeje pro tohoto uživatele.' },
  presets: { en: 'Presets', sk: 'Predvoľby', cs: 'Předvolby' },
  allRights: { en: 'All rights', sk: 'Všetky práva', cs: 'Všechna práva' },
  noRights: { en: 'None', sk: 'Žiadne', cs: 'Žádná' },
  groupTickets: { en: 'Tickets and sales', sk: 'Účty a predaj', cs: 'Účty a prodej' },
  groupCustomers: { en: 'Customers', sk: 'Zákazníci', cs: 'Zákazníci' },
  groupProducts: { en: 'Products and stock', sk: 'Produkty a sklad', cs: 'Produkty a sklad' },
  groupDevices: { en: 'Devices and printing', sk: 'Zariadenia a tlač', cs: 'Zařízení a tisk' },
  groupAdmin: { en: 'Administration', sk: 'Správa', cs: 'Správa' },
});

/** The user as the form holds it: a new password and PIN typed (empty: kept), or the PIN to be removed. */
type UserForm = HubUser & { password?: string; pin?: string; removePin?: boolean };

/** Rights grouped the way a manager thinks about them. */
const RIGHT_GROUPS: Array<[Parameters<typeof t>[0], (r: string) => boolean]> = [
  ['groupTickets', (r) => r.startsWith('Ticket') || r === 'Storno'],
  ['groupCustomers', (r) => r.startsWith('Customer')],
  ['groupProducts', (r) => /^(Plu|Stock|Modifier)/.test(r) && !r.startsWith('StockTransferNumbering')],
  ['groupDevices', (r) => /^(Device|OrderEndpoint|FiscalDevice|FiscalReport|OrderProcess)/.test(r)],
  ['groupAdmin', () => true],
];

function rightGroups(): Array<{ title: string; rights: Option[] }> {
  const left = new Set<string>(RIGHTS);
  return RIGHT_GROUPS.map(([title, test]) => {
    const rights = [...left].filter(test);
    rights.forEach((r) => left.delete(r));
    return { title: t(title), rights: rights.map((r) => ({ value: r, label: rightWord(r) })) };
  });
}

/** The presets' names and purposes in the page's language (hub/http/presets.ts holds them in English). */
const PRESET_WORDS: Record<string, { name: Entry; purpose: Entry }> = {
  Waiter: {
    name: { en: 'Waiter', sk: 'Čašník', cs: 'Číšník' },
    purpose: {
      en: 'Opens tables and adds to their own tickets; sees open tickets and their own sales, the catalog, never customers or users.',
      sk: 'Otvára stoly a pridáva na svoje účty; vidí otvorené účty a svoje tržby, katalóg, nikdy zákazníkov ani používateľov.',
      cs: 'Otevírá stoly a přidává na své účty; vidí otevřené účty a své tržby, katalog, nikdy zákazníky ani uživatele.',
    },
  },
  Cashier: {
    name: { en: 'Cashier', sk: 'Pokladník', cs: 'Pokladní' },
    purpose: {
      en: 'A waiter who also takes payment: closes any ticket, gives discounts, takes items back (Storno), prints X reports.',
      sk: 'Čašník, ktorý aj inkasuje: uzatvára akékoľvek účty, dáva zľavy, berie položky späť (storno), tlačí X správy.',
      cs: 'Číšník, který i inkasuje: uzavírá jakékoli účty, dává slevy, bere položky zpět (storno), tiskne X zprávy.',
    },
  },
  Manager: {
    name: { en: 'Manager', sk: 'Vedúci', cs: 'Vedoucí' },
    purpose: {
      en: 'Runs the shop: catalog, stock, customers, devices, users, reports, backups; every right but the monitoring one.',
      sk: 'Riadi prevádzku: katalóg, sklad, zákazníci, zariadenia, používatelia, prehľady, zálohy; všetky práva okrem monitorovania.',
      cs: 'Řídí provozovnu: katalog, sklad, zákazníci, zařízení, uživatelé, přehledy, zálohy; všechna práva kromě monitorování.',
    },
  },
  'Kitchen display': {
    name: { en: 'Kitchen display', sk: 'Kuchynský displej', cs: 'Kuchyňský displej' },
    purpose: {
      en: 'The pass or a kitchen screen logged in by a user (a paired display needs no user): moves orders, reads nothing else.',
      sk: 'Výdaj alebo kuchynská obrazovka prihlásená používateľom (spárovaný displej používateľa nepotrebuje): posúva objednávky, nič iné nečíta.',
      cs: 'Výdej nebo kuchyňská obrazovka přihlášená uživatelem (spárovaný displej uživatele nepotřebuje): posouvá objednávky, nic jiného nečte.',
    },
  },
};

function RightsField({ form, disabled }: { form: AnyForm; disabled?: boolean }) {
  const chosen = (form.get('rights') as string[] | undefined) ?? [];
  return (
    <fieldset class="rights" disabled={disabled}>
      <legend>{t('rights')}</legend>
      <div class="rights-tools" role="group" aria-label={t('presets')}>
        {PRESETS.map((p) => (
          <Button key={p.name} small variant="ghost" title={PRESET_WORDS[p.name] ? pick(PRESET_WORDS[p.name].purpose) : p.purpose} onClick={() => form.set('rights', [...p.rights])}>
            {PRESET_WORDS[p.name] ? pick(PRESET_WORDS[p.name].name) : p.name}
          </Button>
        ))}
        <Button small variant="ghost" onClick={() => form.set('rights', [...RIGHTS])}>
          {t('allRights')}
        </Button>
        <Button small variant="ghost" onClick={() => form.set('rights', [])}>
          {t('noRights')}
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

export function Users() {
  return (
    <Section<HubUser>
      title={t('users')}
      resource="users"
      createRight="UserCreate"
      newLabel={t('newUser')}
      rowKey={(u) => u.id}
      defaultSort="userName"
      columns={[
        { id: 'userName', title: t('userName'), sort: 'userName', render: (u) => <b>{u.userName}</b> },
        { id: 'name', title: t('personName'), render: (u) => u.name || '—' },
        { id: 'rights', title: t('rights'), render: (u) => (u.rights.length === RIGHTS.length ? t('allRightsShort') : `${u.rights.length}`) },
        { id: 'pin', title: t('pinColumn'), render: (u) => (u.hasPin ? t('yes') : '—'), secondary: true },
        { id: 'active', title: t('state'), render: (u) => active(u.isActive) },
      ]}
      empty={{ title: t('noUsers') }}
      editor={(key, close) => (
        <Editor<UserForm>
          resource="users"
          editKey={key}
          noun={t('user')}
          wide
          title={(v, isNew) => (isNew ? t('newUser') : v.name || v.userName)}
          defaults={{ id: '', userName: '', name: '', isActive: true, rights: [], password: '', pin: '', removePin: false, language: null }}
          rights={{ create: 'UserCreate', update: 'UserUpdate', delete: 'UserDelete' }}
          toBody={(v, isNew) => {
            const { id, password, pin, removePin, hasPin: _hasPin, ...rest } = v;
            // An empty password or PIN keeps the stored one (the hub never sends them back); null removes a PIN.
            // The select's empty choice is the shop's language: null to the hub.
            const pinChange = pin ? { pin } : removePin ? { pin: null } : {};
            return { ...(isNew ? {} : { id }), ...rest, language: rest.language || null, ...(password ? { password } : {}), ...pinChange };
          }}
          onClose={close}
        >
          {(form, { isNew, canEdit }) => (
            <>
              <div class="form-grid">
                <Field form={form} name="userName" label={t('userName')} required validate={(v, all) => checks.pattern(/^\S(.*\S)?$/, t('noSpaces'))(v, all)} autoComplete="off" />
                <Field form={form} name="name" label={t('fullName')} hint={t('fullNameHint')} />
                <Field form={form} name="password" label={isNew ? t('password') : t('newPassword')} kind="password" required={isNew} autoComplete="new-password" hint={isNew ? undefined : t('keepPassword')} />
                <Field
                  form={form}
                  name="pin"
                  label={form.values.hasPin ? t('newPin') : t('pin')}
                  kind="password"
                  autoComplete="off"
                  maxLength={8}
                  disabled={!!form.values.removePin}
                  hint={form.values.hasPin ? t('hasPinHint') : t('pinHint')}
                  validate={(v) => (typeof v === 'string' && v && !/^\d{4,8}$/.test(v) ? t('pinDigits') : null)}
                />
                {form.values.hasPin && <Field form={form} name="removePin" label={t('removePin')} kind="switch" />}
                <Field form={form} name="isActive" label={t('canLogIn')} kind="switch" />
                <Field
                  form={form}
                  name="language"
                  label={t('language')}
                  kind="select"
                  options={[{ value: '', label: t('shopsLanguage') }, ...LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))]}
                  hint={t('languageHint')}
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
