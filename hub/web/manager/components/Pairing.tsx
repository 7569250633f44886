/**
 * A pairing code on the manager's page, for a kitchen display or a register alike: asks the hub for
 * a code when shown (and again on "New code"), shows it big with its expiry, the link the tablet
 * opens and the QR code of that link. Where the page can see the tablet use the code (a register's
 * `pairedAt` moving past the code's making), it says so in place of the code.
 */
import { useEffect, useState } from 'preact/hooks';
import { QrCode } from '../../shared/QrCode';
import { messages } from '../../shared/i18n';
import { time } from '../lib/format';
import { Button, Notice, Spinner } from '../../shared/ui';
import { useFormAction } from './ui';

const t = messages({
  codeFor: { en: 'Pairing code for {name}', sk: 'Párovací kód pre {name}', cs: 'Párovací kód pro {name}' },
  validUntil: { en: 'Valid until {time}, once. Then ask for a new one.', sk: 'Platí do {time}, jedenkrát. Potom si vyžiadajte nový.', cs: 'Platí do {time}, jednou. Pak si vyžádejte nový.' },
  scan: {
    en: 'Scan the QR code with the tablet, or open this address on it and type the code:',
    sk: 'Naskenujte QR kód tabletom, alebo na ňom otvorte túto adresu a zadajte kód:',
    cs: 'Naskenujte QR kód tabletem, nebo na něm otevřete tuto adresu a zadejte kód:',
  },
  qrLabel: { en: 'QR code of the address {link}', sk: 'QR kód adresy {link}', cs: 'QR kód adresy {link}' },
  newCode: { en: 'New code', sk: 'Nový kód', cs: 'Nový kód' },
  done: { en: 'Done', sk: 'Hotovo', cs: 'Hotovo' },
});

/** What the hub answers for a new code (POST /api/kds/pairings, POST /api/registers/pairings). */
export interface PairingCode {
  code: string;
  createdAt: string;
  expiresAt: string;
}

export function Pairing<C extends PairingCode>({
  name,
  request,
  linkOf,
  paired,
  onClose,
}: {
  /** What is being paired: the display's or the register's name. */
  name: string;
  /** Asks the hub for a new code. */
  request: () => Promise<C>;
  /** The link the tablet opens: `href` percent-encoded (the QR code's and the anchor's target), `text` as a person reads and types it. */
  linkOf: (code: C) => { href: string; text: string };
  /** When the thing was last paired, and what to say once that is after this code was made (the tablet used it). */
  paired?: { at: string | null | undefined; say: string };
  onClose: () => void;
}) {
  const [pairing, setPairing] = useState<C | null>(null);
  const { busy, failure: error, run } = useFormAction();
  const ask = () => run(async () => setPairing(await request()));
  useEffect(() => void ask(), [name]);
  const used = !!(pairing && paired?.at && Date.parse(paired.at) >= Date.parse(pairing.createdAt));
  const link = pairing && linkOf(pairing);
  return (
    <div class="pairing" data-testid="pairing" role="region" aria-label={t('codeFor', { name })}>
      {error && <Notice tone="bad">{error}</Notice>}
      {!pairing && !error && <Spinner />}
      {used && (
        <Notice tone="good">
          <span data-testid="pairing-used">{paired!.say}</span>
        </Notice>
      )}
      {pairing && link && !used && (
        <div class="pairing-body">
          <div class="pairing-text">
            <div class="pairing-label">{t('codeFor', { name })}</div>
            <div class="pairing-code mono" data-testid="pairing-code" aria-label={pairing.code.split('').join(' ')}>
              {pairing.code.slice(0, 3)} {pairing.code.slice(3)}
            </div>
            <div class="pairing-expiry" data-testid="pairing-expiry">
              {t('validUntil', { time: time(pairing.expiresAt) })}
            </div>
            <div class="pairing-link">
              {t('scan')}{' '}
              <a class="mono" href={link.href} target="_blank" rel="noopener" data-testid="pairing-link">
                {link.text}
              </a>
            </div>
          </div>
          <QrCode text={link.href} label={t('qrLabel', { link: link.text })} testId="pairing-qr" />
        </div>
      )}
      <div class="pairing-actions">
        {!used && (
          <Button small icon="refresh" busy={busy} onClick={() => void ask()}>
            {t('newCode')}
          </Button>
        )}
        <Button small variant={used ? 'primary' : 'ghost'} onClick={onClose} data-testid="pairing-done">
          {t('done')}
        </Button>
      </div>
    </div>
  );
}
