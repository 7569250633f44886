/** Settings › Backups: making one now and downloading the ones kept. */
import { useState } from 'preact/hooks';
import { Empty, toast } from '../../components/ui';
import { Button, Card, Notice, Spinner } from '../../../shared/ui';
import { useLoad } from '../../lib/data';
import { messages } from '../../../shared/i18n';
import { useCan } from '../../lib/session';
import { api, describeError, download, path } from '../../lib/api';
import { dateTime, quantity } from '../../lib/format';
import { rightWord } from '../../lib/rights-words';
import type { Backup } from '../../lib/wire';

const t = messages({
  backupsTitle: { en: 'Backups', sk: 'Zálohy', cs: 'Zálohy' },
  backupNow: { en: 'Make a backup now', sk: 'Zálohovať teraz', cs: 'Zálohovat nyní' },
  backupMade: { en: 'Backup {file} made.', sk: 'Záloha {file} vytvorená.', cs: 'Záloha {file} vytvořena.' },
  file: { en: 'File', sk: 'Súbor', cs: 'Soubor' },
  size: { en: 'Size', sk: 'Veľkosť', cs: 'Velikost' },
  madeAt: { en: 'Made', sk: 'Vytvorená', cs: 'Vytvořena' },
  download: { en: 'Download', sk: 'Stiahnuť', cs: 'Stáhnout' },
  downloaded: { en: 'Downloaded {file}.', sk: 'Stiahnutý súbor {file}.', cs: 'Stažen soubor {file}.' },
  noBackups: { en: 'No backups yet', sk: 'Zatiaľ žiadne zálohy', cs: 'Zatím žádné zálohy' },
  backupsHint: { en: 'Copy backups off the hub PC now and then: a backup on the same disk does not survive a broken disk.', sk: 'Zálohy občas skopírujte mimo počítača s hubom: záloha na tom istom disku poruchu disku neprežije.', cs: 'Zálohy občas zkopírujte mimo počítač s hubem: záloha na stejném disku poruchu disku nepřežije.' },
  backupRight: { en: 'Making and downloading backups needs the right “{right}”.', sk: 'Vytvárať a sťahovať zálohy môžete len s právom „{right}“.', cs: 'Vytvářet a stahovat zálohy lze jen s právem „{right}“.' },
});

function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${quantity(Math.round(bytes / 102.4) / 10)} kB`;
  return `${quantity(Math.round(bytes / 104857.6) / 10)} MB`;
}

export function Backups() {
  const can = useCan();
  const list = useLoad<{ items: Backup[] }>('/api/backups', (signal) => api.get<{ items: Backup[] }>('/api/backups', signal));
  const [making, setMaking] = useState(false);
  const [fetching, setFetching] = useState<string | null>(null);
  const make = async () => {
    setMaking(true);
    try {
      const b = await api.post<Backup>('/api/backups');
      toast(t('backupMade', { file: b.file }));
      list.reload();
    } catch (e) {
      toast(describeError(e), 'bad');
    } finally {
      setMaking(false);
    }
  };
  const get = async (b: Backup) => {
    setFetching(b.file);
    try {
      const file = await download(path('backups', b.file), 'application/octet-stream', b.file);
      toast(t('downloaded', { file }));
    } catch (e) {
      toast(describeError(e), 'bad');
    } finally {
      setFetching(null);
    }
  };
  const items = list.data?.items ?? [];
  return (
    <Card
      title={t('backupsTitle')}
      actions={
        can('Backup') && (
          <Button variant="primary" icon="plus" busy={making} onClick={() => void make()} data-testid="backup-now">
            {t('backupNow')}
          </Button>
        )
      }
    >
      <p class="muted small">{t('backupsHint')}</p>
      {!can('Backup') && <Notice tone="info">{t('backupRight', { right: rightWord('Backup') })}</Notice>}
      {list.error && <Notice tone="bad">{list.error}</Notice>}
      {!list.data && list.loading && <Spinner />}
      {list.data && items.length === 0 && <Empty title={t('noBackups')} />}
      {items.length > 0 && (
        <div class="table-scroll">
          <table class="compact" aria-label={t('backupsTitle')} data-testid="backups">
            <thead>
              <tr>
                <th>{t('madeAt')}</th>
                <th>{t('file')}</th>
                <th class="al-right">{t('size')}</th>
                {can('Backup') && <th />}
              </tr>
            </thead>
            <tbody>
              {items.map((b) => (
                <tr key={b.file} data-file={b.file}>
                  <td>{dateTime(b.createdAt)}</td>
                  <td class="mono">{b.file}</td>
                  <td class="al-right num">{fileSize(b.size)}</td>
                  {can('Backup') && (
                    <td class="al-right">
                      <Button small icon="download" busy={fetching === b.file} onClick={() => void get(b)}>
                        {t('download')}
                      </Button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
