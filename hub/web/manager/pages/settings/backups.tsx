/** Settings › Backups: making one now and downloading the ones kept. */
import { Empty, toast, useAction, useKeyedAction } from '../../components/ui';
import { CompactTable } from '../../components/CompactTable';
import { Button, Card, Notice, Spinner } from '../../../shared/ui';
import { useLoad } from '../../lib/data';
import { messages } from '../../../shared/i18n';
import { useCan } from '../../lib/session';
import { api, download, path, SLOW_TIMEOUT_MS } from '../../lib/api';
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
  const [making, runMake] = useAction();
  const [fetching, runGet] = useKeyedAction<string>();
  const make = () =>
    runMake(async () => {
      const b = await api.post<Backup>('/api/backups', {}, SLOW_TIMEOUT_MS);
      toast(t('backupMade', { file: b.file }));
      list.reload();
    });
  const get = (b: Backup) =>
    runGet(b.file, async () => {
      const file = await download(path('backups', b.file), 'application/octet-stream', b.file);
      toast(t('downloaded', { file }));
    });
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
        <CompactTable
          label={t('backupsTitle')}
          testId="backups"
          scroll
          rows={items}
          rowKey={(b) => b.file}
          rowProps={(b) => ({ 'data-file': b.file })}
          cols={[
            { title: t('madeAt'), cell: (b) => dateTime(b.createdAt) },
            { title: t('file'), class: () => 'mono', cell: (b) => b.file },
            { title: t('size'), figure: true, cell: (b) => fileSize(b.size) },
            can('Backup') && {
              class: () => 'al-right',
              cell: (b) => (
                <Button small icon="download" busy={fetching === b.file} onClick={() => void get(b)}>
                  {t('download')}
                </Button>
              ),
            },
          ]}
        />
      )}
    </Card>
  );
}
