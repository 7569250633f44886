/**
 * Registers on the Devices page (issue 29): "Add a register" makes a CashRegister or PDA device and
 * asks the hub for a pairing code (POST /api/registers/pairings), shown big with a QR code of the
 * link the tablet opens (`http://<this hub>/pos/#pair=<code>`); each register's row says whether a
 * tablet is paired to it and can pair one again (which retires the earlier tablet).
 */
import { useState } from 'preact/hooks';
import { Badge, Button } from '../../shared/ui';
import { AddAndPair } from '../components/AddAndPair';
import { Field } from '../components/Field';
import { Pairing, type PairingCode } from '../components/Pairing';
import { api } from '../lib/api';
import { dateTime } from '../lib/format';
import { messages } from '../../shared/i18n';
import type { Device } from '../../shared/types';

const t = messages({
  addRegister: { en: 'Add a register', sk: 'Pridať pokladňu', cs: 'Přidat pokladnu' },
  addRegisterHint: {
    en: 'A tablet, phone or touch PC that sells. After adding it you get a code and a QR code to open on that device.',
    sk: 'Tablet, telefón alebo dotykové PC, na ktorom sa predáva. Po pridaní dostanete kód a QR kód, ktorý otvoríte na tom zariadení.',
    cs: 'Tablet, telefon nebo dotykové PC, na kterém se prodává. Po přidání dostanete kód a QR kód, který otevřete na tom zařízení.',
  },
  name: { en: 'Name', sk: 'Názov', cs: 'Název' },
  namePlaceholder: { en: 'e.g. Register 3', sk: 'napr. Pokladňa 3', cs: 'např. Pokladna 3' },
  nameRequired: { en: 'A name is required.', sk: 'Názov je povinný.', cs: 'Název je povinný.' },
  kind: { en: 'Kind', sk: 'Druh', cs: 'Druh' },
  cashRegister: { en: 'Register at a counter', sk: 'Pokladňa pri pulte', cs: 'Pokladna u pultu' },
  pda: { en: "Waiter's handheld (PDA)", sk: 'Čašnícky terminál (PDA)', cs: 'Číšnický terminál (PDA)' },
  pairedNow: { en: '{name} is paired. The tablet can be used now.', sk: '{name} je spárovaná. Tablet sa dá hneď používať.', cs: '{name} je spárovaná. Tablet lze hned používat.' },
  paired: { en: 'Paired {when}', sk: 'Spárovaná {when}', cs: 'Spárovaná {when}' },
  notPaired: { en: 'Not paired', sk: 'Nespárovaná', cs: 'Nespárovaná' },
  pair: { en: 'Pair a tablet', sk: 'Spárovať tablet', cs: 'Spárovat tablet' },
  pairAgain: { en: 'Pair again', sk: 'Spárovať znova', cs: 'Spárovat znovu' },
  pairAgainHint: {
    en: 'Pairing again retires the tablet paired now: it must be paired again to sell.',
    sk: 'Nové spárovanie vyradí doterajší tablet: aby mohol predávať, treba ho spárovať znova.',
    cs: 'Nové spárování vyřadí dosavadní tablet: aby mohl prodávat, je třeba ho spárovat znovu.',
  },
});

interface RegisterCode extends PairingCode {
  link: string;
  deviceName: string;
}

export const isRegister = (d: Device) => d.envName === 'CashRegister' || d.envName === 'PDA';

/** A register's pairing state as a badge: when a tablet was paired, or that none is. */
export function PairedBadge({ d }: { d: Device }) {
  return d.pairedAt ? (
    <Badge tone="good">
      <span data-testid="paired">{t('paired', { when: dateTime(d.pairedAt) })}</span>
    </Badge>
  ) : (
    <Badge tone="warn">
      <span data-testid="not-paired">{t('notPaired')}</span>
    </Badge>
  );
}

/** The button on a register's row that opens its pairing. */
export function PairButton({ d, onPair }: { d: Device; onPair: (name: string) => void }) {
  return (
    <Button small icon="devices" disabled={!d.isActive} title={d.pairedAt ? t('pairAgainHint') : undefined} onClick={() => onPair(d.name)} data-testid={`pair-register-${d.name}`}>
      {d.pairedAt ? t('pairAgain') : t('pair')}
    </Button>
  );
}

/** A register's pairing: its code and the QR code of its link (the hub makes the link); once the tablet used the code, says so. */
export function RegisterPairing({ device, onClose }: { device: Device; onClose: () => void }) {
  return (
    <Pairing
      name={device.name}
      request={() => api.post<RegisterCode>('/api/registers/pairings', { deviceName: device.name })}
      linkOf={(code) => ({ href: code.link, text: code.link })}
      paired={{ at: device.pairedAt, say: t('pairedNow', { name: device.name }) }}
      onClose={onClose}
    />
  );
}

/** "Add a register": a CashRegister or PDA device, then its pairing. */
export function AddRegister({ onCreated }: { onCreated: (name: string) => void }) {
  const [name, setName] = useState('');
  const [envName, setEnvName] = useState<'CashRegister' | 'PDA'>('CashRegister');
  const [nameError, setNameError] = useState<string | null>(null);
  const create = async () => {
    const trimmed = name.trim();
    setNameError(trimmed ? null : t('nameRequired'));
    if (!trimmed) return null;
    await api.post('/api/devices', { name: trimmed, envName });
    setName('');
    return trimmed;
  };
  return (
    <AddAndPair label={t('addRegister')} hint={t('addRegisterHint')} testId="add-register" create={create} nameRefused={setNameError} onCreated={onCreated}>
      <div class="kds-form-fields">
        <Field label={t('name')} value={name} onChange={(x) => setName(String(x ?? ''))} error={nameError} required maxLength={64} placeholder={t('namePlaceholder')} testId="register-name" />
        <Field
          label={t('kind')}
          kind="select"
          value={envName}
          onChange={(x) => setEnvName(x === 'PDA' ? 'PDA' : 'CashRegister')}
          options={[
            { value: 'CashRegister', label: t('cashRegister') },
            { value: 'PDA', label: t('pda') },
          ]}
          testId="register-kind"
        />
      </div>
    </AddAndPair>
  );
}
