/**
 * A page of tabs (Catalog & stock, Settings): only the tabs the user's rights allow are offered, and
 * a tab asked for by its address that is not allowed (or not known) says so instead of showing.
 */
import type { ComponentChildren } from 'preact';
import { messages, pick } from '../../shared/i18n';
import { allowed, type Tab } from '../lib/access';
import { useCan } from '../lib/session';
import { Empty, PageHeader, Tabs } from './ui';

const t = messages({
  notYours: { en: 'This part is not part of your work here', sk: 'Táto časť nie je súčasťou vašej práce', cs: 'Tato část není součástí vaší práce' },
});

export function TabbedPage({ title, subtitle, tabs, asked, panes }: { title: string; subtitle: string; tabs: readonly Tab[]; asked: string; panes: Record<string, () => ComponentChildren> }) {
  const can = useCan();
  const shown = tabs.filter((tb) => allowed(tb, can)).map((tb) => ({ ...tb, label: pick(tb.label) }));
  const tab = shown.some((tb) => tb.id === asked) ? asked : null;
  return (
    <div class="page">
      <PageHeader title={title} subtitle={subtitle} />
      <Tabs tabs={shown} current={tab ?? ''} />
      {tab === null ? <Empty icon="alert" title={t('notYours')} /> : panes[tab]?.()}
    </div>
  );
}
