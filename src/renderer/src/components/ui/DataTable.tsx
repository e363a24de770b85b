/**
 * The one table: grid lines, a header that stays while the body scrolls, numbers right-aligned in tabular
 * figures, and long text cut with "…" — the full value on hover (title) and on keyboard focus (the cell opens up).
 */
import type { ReactNode } from 'react'

export interface Column<R> {
  id: string
  header: ReactNode
  cell: (row: R) => ReactNode
  /** Right-aligned, tabular figures (amounts, counts). */
  numeric?: boolean
  /** One line cut with "…"; `text` gives the full value shown on hover and focus. */
  truncate?: (row: R) => string
}

export function TruncatedText({ text, children }: { text: string; children?: ReactNode }): React.JSX.Element {
  return (
    // Focusable so a keyboard user can read the whole value too (CSS shows it on :focus).
    <span className="cell-trunc" title={text} tabIndex={0}>
      {children ?? text}
    </span>
  )
}

export function DataTable<R>({
  columns,
  rows,
  rowKey,
  caption,
  testId,
  rowProps,
  maxHeight,
}: {
  columns: ReadonlyArray<Column<R>>
  rows: readonly R[]
  rowKey: (row: R) => string
  caption?: ReactNode
  testId?: string
  rowProps?: (row: R) => Record<string, string | undefined>
  /** Scroll the body under a sticky header past this height (px). */
  maxHeight?: number
}): React.JSX.Element {
  return (
    <div className="table-scroll" style={maxHeight ? { maxHeight } : undefined}>
      <table className="data data-grid" data-testid={testId}>
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.id} scope="col" className={c.numeric ? 'num-col' : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={rowKey(r)} {...(rowProps ? rowProps(r) : {})}>
              {columns.map((c) => (
                <td key={c.id} className={c.numeric ? 'num-col num' : undefined} data-col={c.id}>
                  {c.truncate ? <TruncatedText text={c.truncate(r)}>{c.cell(r)}</TruncatedText> : c.cell(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
