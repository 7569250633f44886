/** Settings › Registers: when the hub last heard from each device. */
import { useEffect, useState } from 'preact/hooks';
import { Empty } from '../../components/ui';
import { Badge, Button, Card, Notice, Spinner } from '../../../shared/ui';
import { useLoad } from '../../lib/data';
import { messages } from '../../../shared/i18n';
import { api } from '../../lib/api';
import { dateTime, time } from '../../lib/format';
import { envWord } from '../../lib/device-words';
import type { Health } from '../../../shared/types';
import { active } from './section';

const t = messages({
  state: { en: 'State', sk: 'Stav', cs: 'Stav' },
  name: { en: 'Name', sk: 'Názov', cs: 'Název' },
  kind: { en: 'Kind', sk: 'Druh', cs: 'Druh' },
  noDevices: { en: 'No devices', sk: 'Žiadne zariadenia', cs: 'Žádná zařízení' },
  contactTitle: { en: 'Registers and their last contact', sk: 'Pokladne a ich posledné spojenie', cs: 'Pokladny a jejich poslední spojení' },
  contactHint: { en: 'When the hub last heard from each device. One that has been silent for over {n} minutes while the shop is open may be off or off the network.', sk: 'Kedy sa hub naposledy ozval každému zariadeniu. Zariadenie, ktoré počas otváracích hodín mlčí viac ako {n} minút, môže byť vypnuté alebo mimo siete.', cs: 'Kdy se hub naposledy spojil s každým zařízením. Zařízení, které během otevírací doby mlčí déle než {n} minut, může být vypnuté nebo mimo síť.' },
  lastContact: { en: 'Last contact', sk: 'Posledné spojenie', cs: 'Poslední spojení' },
  never2: { en: 'Never', sk: 'Nikdy', cs: 'Nikdy' },
  justNow: { en: 'just now', sk: 'práve teraz', cs: 'právě teď' },
  minAgo: { en: '{n} min ago', sk: 'pred {n} min', cs: 'před {n} min' },
  hAgo: { en: '{h} h {m} min ago', sk: 'pred {h} h {m} min', cs: 'před {h} h {m} min' },
  silent: { en: 'Silent', sk: 'Bez spojenia', cs: 'Bez spojení' },
  inTouch: { en: 'In touch', sk: 'Spojené', cs: 'Spojeno' },
  noContact: { en: 'No contact known', sk: 'Spojenie nie je známe', cs: 'Spojení není známo' },
  refresh: { en: 'Refresh', sk: 'Obnoviť', cs: 'Obnovit' },
});

/** A device silent for longer than this is flagged. */
const SILENT_MIN = 15;

function ago(iso: string, now: number): string {
  const min = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (min < 1) return t('justNow');
  if (min < 60) return t('minAgo', { n: min });
  if (min < 24 * 60) return t('hAgo', { h: Math.floor(min / 60), m: min % 60 });
  return dateTime(iso);
}

export function RegistersContact() {
  const health = useLoad<Health>('/api/health', (signal) => api.get<Health>('/api/health', signal), ['devices']);
  const [now, setNow] = useState(Date.now());
  // The "minutes ago" move on by themselves, and the hub is asked again every half minute.
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
      health.reload();
    }, 30_000);
    return () => clearInterval(timer);
  }, []);
  const devices = health.data?.devices ?? [];
  return (
    <Card
      title={t('contactTitle')}
      actions={
        <Button small icon="refresh" busy={health.loading} onClick={() => { setNow(Date.now()); health.reload(); }}>
          {t('refresh')}
        </Button>
      }
    >
      <p class="muted small">{t('contactHint', { n: SILENT_MIN })}</p>
      {health.error && <Notice tone="bad">{health.error}</Notice>}
      {!health.data && health.loading && <Spinner />}
      {health.data && devices.length === 0 && <Empty title={t('noDevices')} />}
      {devices.length > 0 && (
        <div class="table-scroll">
          <table class="compact" aria-label={t('contactTitle')} data-testid="registers">
            <thead>
              <tr>
                <th>{t('name')}</th>
                <th>{t('kind')}</th>
                <th>{t('lastContact')}</th>
                <th>{t('state')}</th>
              </tr>
            </thead>
            <tbody>
              {devices.map((d) => {
                const silent = !d.lastContactAt || now - Date.parse(d.lastContactAt) > SILENT_MIN * 60_000;
                return (
                  <tr key={d.name} data-device={d.name}>
                    <td>
                      <b>{d.name}</b>
                      {!d.isActive && <> {active(false)}</>}
                    </td>
                    <td>{envWord(d.envName)}</td>
                    <td data-col="contact" title={d.lastContactAt ? dateTime(d.lastContactAt) : undefined}>
                      {d.lastContactAt ? (
                        <>
                          {ago(d.lastContactAt, now)} <span class="muted small">({time(d.lastContactAt)})</span>
                        </>
                      ) : (
                        t('never2')
                      )}
                    </td>
                    <td data-col="state">{!d.lastContactAt ? <Badge>{t('noContact')}</Badge> : silent ? <Badge tone="warn">{t('silent')}</Badge> : <Badge tone="good">{t('inTouch')}</Badge>}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
