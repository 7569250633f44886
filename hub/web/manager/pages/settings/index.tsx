/**
 * Settings: payment types, document numberings, users and their rights, the devices' settings, and
 * (issue 21) the e-mail receipts with their outbox, the backups and the registers' last contact.
 * One screen per tab, each in its own module beside this one with its own messages.
 */
import { PageHeader, Tabs, Empty } from '../../components/ui';
import { messages, pick } from '../../../shared/i18n';
import { allowed, SETTINGS_TABS } from '../../lib/access';
import { useCan } from '../../lib/session';
import { Backups } from './backups';
import { DeviceSettings } from './devices';
import { Numberings } from './numberings';
import { Outbox } from './outbox';
import { PaymentTypes } from './payments';
import { ReceiptSettingsTab } from './receipts';
import { RegistersContact } from './registers';
import { Users } from './users';

const t = messages({
  title: { en: 'Settings', sk: 'Nastavenia', cs: 'Nastavení' },
  subtitle: { en: 'How the shop is set up. Changes reach the registers at once.', sk: 'Ako je prevádzka nastavená. Zmeny sa hneď prejavia na pokladniach.', cs: 'Jak je provozovna nastavená. Změny se hned projeví na pokladnách.' },
  notYours: { en: 'This part is not part of your work here', sk: 'Táto časť nie je súčasťou vašej práce', cs: 'Tato část není součástí vaší práce' },
});

export function Settings({ tab: asked }: { tab: string }) {
  const can = useCan();
  const tabs = SETTINGS_TABS.filter((x) => allowed(x, can)).map((x) => ({ ...x, label: pick(x.label) }));
  const tab = tabs.some((x) => x.id === asked) ? asked : null;
  return (
    <div class="page">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Tabs tabs={tabs} current={tab ?? ''} />
      {tab === null && <Empty icon="alert" title={t('notYours')} />}
      {tab === 'payments' && <PaymentTypes />}
      {tab === 'numberings' && <Numberings />}
      {tab === 'users' && <Users />}
      {tab === 'devices' && <DeviceSettings />}
      {tab === 'receipts' && <ReceiptSettingsTab />}
      {tab === 'outbox' && <Outbox />}
      {tab === 'backups' && <Backups />}
      {tab === 'registers' && <RegistersContact />}
    </div>
  );
}
