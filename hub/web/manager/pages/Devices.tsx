/**
 * Devices: the registers, the kitchen printers and the fiscal printers with their status as the
 * hub reports it (refreshed every few seconds and on every change), a test print, and the X and
 * Z reports. An action this hub does not offer yet (404) says so instead of failing.
 */
import { useEffect, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { Badge, Button, Card, confirm, Empty, LinkButton, Notice, PageHeader, Spinner } from '../components/ui';
import { Icon } from '../components/Icon';
import { api, ApiError, describeError, path } from '../lib/api';
import { useAll, useLoad } from '../lib/data';
import { collator, money } from '../lib/format';
import { useCan } from '../lib/session';
import type { Device, FiscalDevice, Health, OrderEndpoint, PrinterStatus } from '../../shared/types';

const POLL_MS = 5000;

/** Re-runs `reload` every few seconds while the page is visible: device status is not a stored change. */
function usePoll(reload: () => void) {
  useEffect(() => {
    const t = setInterval(() => document.visibilityState === 'visible' && reload(), POLL_MS);
    return () => clearInterval(t);
  }, [reload]);
}

type Tone = 'good' | 'warn' | 'bad' | 'neutral';

function onlineBadge(online: boolean | null | undefined, active: boolean) {
  if (!active) return <Badge tone="neutral">Switched off</Badge>;
  if (online === true) return <Badge tone="good">Online</Badge>;
  if (online === false) return <Badge tone="bad">Offline</Badge>;
  return <Badge tone="neutral">Status unknown</Badge>;
}

function paperBadge(paper: string | null | undefined) {
  if (!paper || paper === 'unknown') return null;
  const tone: Tone = paper === 'ok' ? 'good' : paper === 'low' ? 'warn' : 'bad';
  return <Badge tone={tone}>{paper === 'ok' ? 'Paper OK' : paper === 'low' ? 'Paper low' : 'Out of paper'}</Badge>;
}

/** The action's result as a sentence, next to its buttons. */
function useAction() {
  const [result, setResult] = useState<{ tone: 'good' | 'bad' | 'warn'; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (id: string, call: () => Promise<unknown>, done: (r: unknown) => string, missing: string) => {
    setBusy(id);
    setResult(null);
    try {
      setResult({ tone: 'good', text: done(await call()) });
    } catch (e) {
      // "No endpoint at …" (or 405): the hub lacks the action; "… does not exist": the device is gone.
      const notOffered = e instanceof ApiError && (e.status === 405 || (e.status === 404 && !/does not exist/i.test(e.problem.detail ?? '')));
      setResult({ tone: notOffered ? 'warn' : 'bad', text: notOffered ? missing : describeError(e, missing) });
    } finally {
      setBusy(null);
    }
  };
  return { result, busy, run, clear: () => setResult(null) };
}

function DeviceRow({ icon, title, badges, facts, actions, children }: { icon: 'register' | 'printer' | 'fiscal'; title: string; badges: ComponentChildren; facts: ComponentChildren; actions?: ComponentChildren; children?: ComponentChildren }) {
  return (
    <li class="device" data-testid={`device-${title}`}>
      <span class="device-icon" aria-hidden="true">
        <Icon name={icon} size={24} />
      </span>
      <div class="device-main">
        <div class="device-title">
          <b>{title}</b>
          {badges}
        </div>
        <div class="device-facts">{facts}</div>
        {children}
      </div>
      {actions && <div class="device-actions">{actions}</div>}
    </li>
  );
}

function Printer({ p, health }: { p: OrderEndpoint; health: NonNullable<Health['printers']>[number] | undefined }) {
  const action = useAction();
  // The printing service's status endpoint, where it exists; /api/health otherwise.
  const status = useLoad<PrinterStatus | null>(`status:${p.name}`, (signal) =>
    api.get<PrinterStatus>(`${path('orderendpoints', p.name)}/status`, signal).catch((e: unknown) => {
      if (e instanceof ApiError && (e.status === 404 || e.status === 405)) return null;
      throw e;
    }),
  );
  usePoll(status.reload);
  // Health reports a printer's status as the printing service's summary, or 'unknown' without one.
  const fromHealth = health && typeof health.status === 'object' ? (health.status as Partial<PrinterStatus>) : undefined;
  const s: Partial<PrinterStatus> = { ...fromHealth, ...(status.data ?? {}) };
  const online = typeof s.online === 'boolean' ? s.online : null;
  const queue = s.queueDepth ?? health?.queueDepth ?? 0;
  return (
    <DeviceRow
      icon="printer"
      title={p.name}
      badges={
        <>
          {p.type === 'Tablet' ? <Badge tone="info">Kitchen display</Badge> : onlineBadge(online, p.isActive)}
          {paperBadge(s.paper)}
          {s.cover === 'open' && <Badge tone="bad">Cover open</Badge>}
          {queue > 0 && <Badge tone="warn">{queue} waiting</Badge>}
        </>
      }
      facts={
        <>
          <span>{p.type}</span>
          <span class="mono">{p.address || '—'}</span>
        </>
      }
      actions={
        p.type !== 'Tablet' && (
          <Button
            small
            icon="printer"
            busy={action.busy === 'test'}
            disabled={!p.isActive}
            onClick={() =>
              action.run(
                'test',
                () => api.post(`${path('orderendpoints', p.name)}/test`),
                () => `A test page is on its way to ${p.name}.`,
                'This hub cannot print a test page yet: the printing service does not offer it.',
              )
            }
          >
            Test print
          </Button>
        )
      }
    >
      {s.lastError && <div class="field-error">Last error: {s.lastError}</div>}
      {action.result && (
        <Notice tone={action.result.tone} onClose={action.clear}>
          <span data-testid="device-message">{action.result.text}</span>
        </Notice>
      )}
    </DeviceRow>
  );
}

function Fiscal({ f }: { f: FiscalDevice }) {
  const can = useCan();
  const action = useAction();
  const report = (kind: 'x' | 'z') =>
    action.run(
      kind,
      () => api.post(`${path('fiscaldevices', f.name)}/reports/${kind}`),
      (r) => {
        const { number: n, receipts, total } = (r ?? {}) as { number?: number; receipts?: number; total?: string };
        const day = receipts !== undefined && total !== undefined ? ` ${receipts} receipts, ${money(Number(total))}.` : '';
        return kind === 'x' ? `The X report is printed; the fiscal day stays open.${day}` : `The Z report${n ? ` no. ${n}` : ''} is printed: the fiscal day is closed.${day}`;
      },
      `This hub cannot print ${kind.toUpperCase()} reports yet: the fiscal service does not offer them.`,
    );
  const s = f.status;
  return (
    <DeviceRow
      icon="fiscal"
      title={f.name}
      badges={
        <>
          {onlineBadge(s?.online, f.isActive)}
          {paperBadge(s?.paper)}
        </>
      }
      facts={
        <>
          <span>{f.driver}</span>
          <span class="mono">{f.address}</span>
          {s?.fiscalMemorySerialNumber && <span>Fiscal memory {s.fiscalMemorySerialNumber}</span>}
          {s?.dailySalesReportNumber != null && <span>Fiscal day {s.dailySalesReportNumber}</span>}
        </>
      }
      actions={
        can('FiscalReport') && (
          <>
            <Button small busy={action.busy === 'x'} disabled={!f.isActive} onClick={() => report('x')}>
              X report
            </Button>
            <Button
              small
              variant="danger"
              busy={action.busy === 'z'}
              disabled={!f.isActive}
              onClick={async () => {
                const ok = await confirm({
                  title: `Close the fiscal day on ${f.name}?`,
                  text: 'The Z report ends the fiscal day: do it once, after the last receipt of the day. The next receipts belong to the next day.',
                  confirm: 'Print Z report',
                  danger: true,
                });
                if (ok) void report('z');
              }}
            >
              Z report
            </Button>
          </>
        )
      }
    >
      {s?.lastError && <div class="field-error">Last error: {s.lastError}</div>}
      {action.result && (
        <Notice tone={action.result.tone} onClose={action.clear}>
          <span data-testid="device-message">{action.result.text}</span>
        </Notice>
      )}
    </DeviceRow>
  );
}

export function Devices() {
  const devices = useAll<Device>('devices');
  const printers = useAll<OrderEndpoint>('orderendpoints');
  const fiscal = useAll<FiscalDevice>('fiscaldevices');
  const health = useLoad<Health>('health', (signal) => api.get<Health>('/api/health', signal), ['orderendpoints', 'fiscaldevices', 'orders']);
  usePoll(health.reload);
  usePoll(fiscal.reload);
  const healthOf = (name: string) => health.data?.printers?.find((p) => p.name === name);
  const sorted = <T extends { name: string }>(rows: T[] | null) => [...(rows ?? [])].sort((a, b) => collator.compare(a.name, b.name));
  const registers = sorted(devices.data).filter((d) => d.envName !== 'BackOffice');
  const other = sorted(devices.data).filter((d) => d.envName === 'BackOffice');

  return (
    <div class="page">
      <PageHeader
        title="Devices"
        subtitle="Registers, kitchen printers and fiscal printers, as the hub sees them now."
        actions={
          <LinkButton href="/settings/devices" icon="settings">
            Device settings
          </LinkButton>
        }
      />
      {health.error && <Notice tone="warn">The hub's status could not be read: {health.error}</Notice>}
      <div class="grid-2">
        <Card title="Registers">
          {!devices.data ? (
            devices.error ? <Notice tone="bad">{devices.error}</Notice> : <Spinner />
          ) : registers.length + other.length === 0 ? (
            <Empty icon="register" title="No registers yet" />
          ) : (
            <ul class="devices">
              {[...registers, ...other].map((d) => (
                <DeviceRow
                  key={d.name}
                  icon="register"
                  title={d.name}
                  badges={
                    <>
                      <Badge tone={d.envName === 'CashRegister' || d.envName === 'PDA' ? 'info' : 'neutral'}>{d.envName === 'CashRegister' ? 'Register' : d.envName}</Badge>
                      {!d.isActive && <Badge>Switched off</Badge>}
                    </>
                  }
                  facts={
                    <>
                      {d.description && <span>{d.description}</span>}
                      {d.settings.DefaultFiscalName && <span>Receipts on {d.settings.DefaultFiscalName}</span>}
                      {d.settings.DefaultOrderEndpointName && <span>Bills on {d.settings.DefaultOrderEndpointName}</span>}
                    </>
                  }
                />
              ))}
            </ul>
          )}
        </Card>
        <div class="stack">
          <Card title="Kitchen printers">
            {!printers.data ? (
              printers.error ? <Notice tone="bad">{printers.error}</Notice> : <Spinner />
            ) : printers.data.length === 0 ? (
              <Empty icon="printer" title="No kitchen printers">
                Add one under Settings › Devices.
              </Empty>
            ) : (
              <ul class="devices">
                {sorted(printers.data).map((p) => (
                  <Printer key={p.name} p={p} health={healthOf(p.name)} />
                ))}
              </ul>
            )}
          </Card>
          <Card title="Fiscal printers">
            {!fiscal.data ? (
              fiscal.error ? <Notice tone="bad">{fiscal.error}</Notice> : <Spinner />
            ) : fiscal.data.length === 0 ? (
              <Empty icon="fiscal" title="No fiscal printer">
                Add one under Settings › Devices.
              </Empty>
            ) : (
              <ul class="devices">
                {sorted(fiscal.data).map((f) => (
                  <Fiscal key={f.name} f={f} />
                ))}
              </ul>
            )}
          </Card>
        </div>
      </div>
    </div>
  );
}
