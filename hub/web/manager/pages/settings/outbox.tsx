/** Settings › E-mail outbox: the e-mail receipts sent, waiting or failed, and sending one again. */
import { DataTable } from '../../components/DataTable';
import { Segmented, toast, useKeyedAction } from '../../components/ui';
import { Badge, Button, Card } from '../../../shared/ui';
import { useQuery } from '../../lib/router';
import { messages } from '../../../shared/i18n';
import { refreshSession, useCan } from '../../lib/session';
import { api, ApiError, path } from '../../lib/api';
import { dateTime } from '../../lib/format';
import type { ReceiptEmail } from '../../lib/wire';

const t = messages({
  state: { en: 'State', sk: 'Stav', cs: 'Stav' },
  outboxTitle: { en: 'E-mail receipts', sk: 'Doklady poslané e-mailom', cs: 'Doklady poslané e-mailem' },
  created: { en: 'Created', sk: 'Vytvorený', cs: 'Vytvořen' },
  to: { en: 'To', sk: 'Komu', cs: 'Komu' },
  attempts: { en: 'Attempts', sk: 'Pokusy', cs: 'Pokusy' },
  lastError: { en: 'Last error', sk: 'Posledná chyba', cs: 'Poslední chyba' },
  sentAt: { en: 'Sent', sk: 'Odoslaný', cs: 'Odeslán' },
  stQueued: { en: 'Waiting', sk: 'Čaká', cs: 'Čeká' },
  stSent: { en: 'Sent', sk: 'Odoslaný', cs: 'Odeslán' },
  stFailed: { en: 'Failed', sk: 'Zlyhal', cs: 'Selhal' },
  resend: { en: 'Resend', sk: 'Poslať znova', cs: 'Poslat znovu' },
  resent: { en: 'The e-mail to {to} is queued again.', sk: 'E-mail pre {to} je znova v poradí na odoslanie.', cs: 'E-mail pro {to} je znovu ve frontě k odeslání.' },
  noEmails: { en: 'No e-mail receipts yet', sk: 'Zatiaľ žiadne doklady poslané e-mailom', cs: 'Zatím žádné doklady poslané e-mailem' },
  noEmailsText: { en: 'A receipt is e-mailed when a ticket is closed with the guest’s address.', sk: 'Doklad sa pošle e-mailom, keď sa účet uzavrie s adresou hosťa.', cs: 'Doklad se pošle e-mailem, když se účet uzavře s adresou hosta.' },
  filterState: { en: 'Show', sk: 'Zobraziť', cs: 'Zobrazit' },
  all: { en: 'All', sk: 'Všetky', cs: 'Všechny' },
});

const STATE_TONES = { Queued: 'info', Sent: 'good', Failed: 'bad' } as const;

export function Outbox() {
  const can = useCan();
  const [q, setQuery] = useQuery();
  const state = q.get('state') ?? '';
  const [busy, run] = useKeyedAction<string>();
  const resend = (e: ReceiptEmail) =>
    run(e.id, async () => {
      await api.post(`${path('receipts', 'emails', e.id)}/resend`).catch((err: unknown) => {
        // A right taken away meanwhile: the session learns it (the button goes), the toast says it.
        if (err instanceof ApiError && err.isMissingRight) void refreshSession().catch(() => undefined);
        throw err;
      });
      toast(t('resent', { to: e.to }));
    });
  const stateLabel = (x: string) => ({ Queued: t('stQueued'), Sent: t('stSent'), Failed: t('stFailed') })[x] ?? x;
  return (
    <Card title={t('outboxTitle')}>
      <Segmented
        label={t('filterState')}
        value={state}
        onChange={(v) => setQuery({ state: v || null, page: null })}
        options={[
          { value: '', label: t('all') },
          { value: 'Queued', label: t('stQueued') },
          { value: 'Failed', label: t('stFailed') },
          { value: 'Sent', label: t('stSent') },
        ]}
      />
      <DataTable<ReceiptEmail>
        resource="receipts/emails"
        label={t('outboxTitle')}
        filters={{ state: state ? `eq:${state}` : null }}
        rowKey={(e) => e.id}
        columns={[
          { id: 'created', title: t('created'), render: (e) => dateTime(e.createdAt) },
          { id: 'to', title: t('to'), render: (e) => <b>{e.to}</b> },
          { id: 'state', title: t('state'), render: (e) => <Badge tone={STATE_TONES[e.state]}>{stateLabel(e.state)}</Badge> },
          { id: 'attempts', title: t('attempts'), sort: 'attempts', align: 'right', render: (e) => e.attempts },
          { id: 'error', title: t('lastError'), render: (e) => <span class="small muted">{e.lastError ?? '—'}</span>, secondary: true },
          { id: 'sent', title: t('sentAt'), render: (e) => (e.sentAt ? dateTime(e.sentAt) : '—'), secondary: true },
          ...(can('TicketClose')
            ? [
                {
                  id: 'resend',
                  title: '',
                  align: 'right' as const,
                  render: (e: ReceiptEmail) => (
                    <Button small icon="mail" busy={busy === e.id} onClick={() => void resend(e)} data-testid={`resend-${e.id}`}>
                      {t('resend')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
        empty={{ title: t('noEmails'), text: t('noEmailsText') }}
      />
    </Card>
  );
}
