/**
 * Settings: payment types, document numberings, users and their rights, the devices' settings, and
 * (issue 21) the e-mail receipts with their outbox, the backups and the registers' last contact.
 * One screen per tab, each in its own module beside this one with its own messages.
 */
import { TabbedPage } from '../../components/TabbedPage';
import { messages } from '../../../shared/i18n';
import { SETTINGS_TABS } from '../../lib/access';
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
});

export function Settings({ tab }: { tab: string }) {
  return (
    <TabbedPage
      title={t('title')}
      subtitle={t('subtitle')}
      tabs={SETTINGS_TABS}
      asked={tab}
      panes={{
        payments: () => <PaymentTypes />,
        numberings: () => <Numberings />,
        users: () => <Users />,
        devices: () => <DeviceSettings />,
        receipts: () => <ReceiptSettingsTab />,
        outbox: () => <Outbox />,
        backups: () => <Backups />,
        registers: () => <RegistersContact />,
      }}
    />
  );
}
