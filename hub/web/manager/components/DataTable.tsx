/**
 * The one list component: a page of a hub resource (`$skip/$take`), sortable by the hub's sort
 * keys (`$sort`), reloaded live when the resource changes. Page and sort live in the query
 * string, so reload and the back button keep them.
 */
import type { ComponentChildren } from 'preact';
import type { Filters } from '../lib/api';
import { useList } from '../lib/data';
import { quantity } from '../lib/format';
import { useQuery } from '../lib/router';
import { Icon } from '../../shared/Icon';
import { Empty } from './ui';
import { Button, Notice } from '../../shared/ui';
import { messages } from '../../shared/i18n';

const t = messages({
  retry: { en: 'Try again', sk: 'Skúsiť znova', cs: 'Zkusit znovu' },
  range: { en: '{first}–{last} of {total}', sk: '{first}–{last} z {total}', cs: '{first}–{last} z {total}' },
  previous: { en: 'Previous page', sk: 'Predchádzajúca strana', cs: 'Předchozí strana' },
  next: { en: 'Next page', sk: 'Ďalšia strana', cs: 'Další strana' },
  page: { en: 'Page {page} of {pages}', sk: 'Strana {page} z {pages}', cs: 'Strana {page} z {pages}' },
});

export interface Column<T> {
  id: string;
  title: string;
  render: (row: T) => ComponentChildren;
  /** The hub's sort key for this column; without it the column does not sort. */
  sort?: string;
  align?: 'right' | 'center';
  /** Dropped on a portrait tablet, where the width is for the columns that matter most. */
  secondary?: boolean;
}

interface Props<T> {
  resource: string;
  label: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  filters?: Filters;
  onOpen?: (row: T) => void;
  selected?: string | null;
  pageSize?: number;
  defaultSort?: string;
  live?: string[];
  empty: { title: string; text?: ComponentChildren };
  /** Prefix of the page/sort parameters when one page holds two tables. */
  stateKey?: string;
}

/** `-a` → {key: 'a', desc: true}. */
function parseSort(s: string): { key: string; desc: boolean } {
  return s.startsWith('-') ? { key: s.slice(1), desc: true } : { key: s, desc: false };
}

export function DataTable<T>(props: Props<T>) {
  const { columns, pageSize = 25, stateKey = '' } = props;
  const [query, setQuery] = useQuery();
  const page = Math.max(1, Number(query.get(`${stateKey}page`)) || 1);
  const sort = query.get(`${stateKey}sort`) ?? props.defaultSort ?? '';
  const { data, error, loading, reload } = useList<T>(props.resource, { filters: props.filters, skip: (page - 1) * pageSize, take: pageSize, sort }, props.live);
  const current = parseSort(sort);
  const pages = data ? Math.max(1, Math.ceil(data.totalCount / pageSize)) : 1;

  const toggleSort = (key: string) => {
    const next = current.key === key && !current.desc ? `-${key}` : key;
    setQuery({ [`${stateKey}sort`]: next, [`${stateKey}page`]: null });
  };
  const goto = (p: number) => setQuery({ [`${stateKey}page`]: p > 1 ? String(p) : null });

  if (error && !data) {
    return (
      <Notice tone="bad">
        {error}{' '}
        <Button small variant="ghost" onClick={reload}>
          {t('retry')}
        </Button>
      </Notice>
    );
  }

  const rows = data?.items ?? [];
  const first = (page - 1) * pageSize + 1;
  return (
    <div class={`datatable${loading ? ' is-loading' : ''}`} data-testid={`table-${props.resource}`}>
      <div class="table-scroll">
        <table aria-label={props.label} aria-busy={loading}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th
                  key={c.id}
                  class={`${c.align ? `al-${c.align}` : ''}${c.secondary ? ' secondary' : ''}`}
                  aria-sort={c.sort && current.key === c.sort ? (current.desc ? 'descending' : 'ascending') : undefined}
                >
                  {c.sort ? (
                    <button type="button" class="sort" onClick={() => toggleSort(c.sort!)}>
                      {c.title}
                      {current.key === c.sort && <Icon name={current.desc ? 'down' : 'up'} size={14} />}
                    </button>
                  ) : (
                    c.title
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const key = props.rowKey(row);
              return (
                <tr
                  key={key}
                  class={`${props.onOpen ? 'clickable' : ''}${props.selected === key ? ' selected' : ''}`}
                  tabIndex={props.onOpen ? 0 : undefined}
                  onClick={props.onOpen ? () => props.onOpen!(row) : undefined}
                  onKeyDown={props.onOpen ? (e) => e.key === 'Enter' && props.onOpen!(row) : undefined}
                >
                  {columns.map((c) => (
                    <td key={c.id} class={`${c.align ? `al-${c.align}` : ''}${c.secondary ? ' secondary' : ''}`} data-label={c.title}>
                      {c.render(row)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {data && rows.length === 0 && <Empty title={props.empty.title}>{props.empty.text}</Empty>}
      {!data && loading && <div class="table-placeholder" aria-hidden="true" />}
      {data && data.totalCount > 0 && (
        <footer class="pager">
          <span class="pager-info">
            {t('range', { first: quantity(first), last: quantity(first + rows.length - 1), total: quantity(data.totalCount) })}
          </span>
          {pages > 1 && (
            <span class="pager-buttons">
              <Button small icon="left" aria-label={t('previous')} disabled={page <= 1} onClick={() => goto(page - 1)} />
              <span class="pager-page">
                {t('page', { page, pages })}
              </span>
              <Button small icon="right" aria-label={t('next')} disabled={page >= pages} onClick={() => goto(page + 1)} />
            </span>
          )}
        </footer>
      )}
    </div>
  );
}
