/**
 * A small read-only table of rows already loaded (a day's payments, a shift's movements, the
 * backups kept): a header a column, figures right-aligned in tabular digits. Lists of a hub
 * resource, paged and sorted by the hub, are DataTable's.
 */
import type { ComponentChildren, HTMLAttributes } from 'preact';

export interface Col<T> {
  /** The header; none for a column of buttons. */
  title?: ComponentChildren;
  cell: (row: T) => ComponentChildren;
  /** A figure: right-aligned, in tabular digits. */
  figure?: boolean;
  /** More classes on the cell (`negative`, `mono`…). */
  class?: (row: T) => string;
  /** `data-col` on the cell, for a test to find the column by name. */
  id?: string;
}

interface Props<T> {
  label: string;
  testId?: string;
  cols: Array<Col<T> | false | null | undefined>;
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** Attributes of a row (`data-kind`, a click that opens it…). */
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;
  /** A totals row: a cell a column, set as the columns are. */
  foot?: ComponentChildren[];
  /** In a box that scrolls sideways on a narrow screen. */
  scroll?: boolean;
}

const classes = (...names: Array<string | false | undefined>) => names.filter(Boolean).join(' ') || undefined;

export function CompactTable<T>({ label, testId, cols: maybe, rows, rowKey, rowProps, foot, scroll }: Props<T>) {
  const cols = maybe.filter((c): c is Col<T> => !!c);
  const table = (
    <table class="compact" aria-label={label} data-testid={testId}>
      <thead>
        <tr>
          {cols.map((c, i) => (
            <th key={i} class={classes(c.figure && 'al-right')}>
              {c.title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowProps?.(row)}>
            {cols.map((c, i) => (
              <td key={i} class={classes(c.figure && 'al-right num', c.class?.(row))} data-col={c.id}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      {foot && (
        <tfoot>
          <tr>
            {cols.map((c, i) => (
              <th key={i} class={classes(c.figure && 'al-right num')}>
                {foot[i]}
              </th>
            ))}
          </tr>
        </tfoot>
      )}
    </table>
  );
  return scroll ? <div class="table-scroll">{table}</div> : table;
}
