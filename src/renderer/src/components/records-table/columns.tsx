/** Columns of the records table. Ids of sortable columns are main's sort fields, so sort state maps 1:1. */
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table'
import type { TFunction } from 'i18next'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { Brl, DateTime } from '../format'
import { StatusBadge } from '../StatusBadge'

const col = createColumnHelper<WithdrawalRecord>()

/** Width in px of each column: fixed, so the layout does not jump as rows load and unload while scrolling. */
export const COLUMN_WIDTHS: Readonly<Record<string, number>> = {
  createdAt: 190,
  status: 200,
  pixKey: 200,
  receiverName: 170,
  amount: 170,
  payout: 130,
  remoteId: 150,
  localId: 100,
  updatedAt: 190,
}

/** The first 8 characters identify a record among thousands; the full id is in the title and on the detail. */
export function shortId(id: string): string {
  return id.length > 8 ? `${id.slice(0, 8)}…` : id
}

function Text({ value, mono }: { value: string | null; mono?: boolean }): React.JSX.Element {
  if (value === null || value === '') return <span>—</span>
  return (
    <span className={mono ? 'mono cell-text' : 'cell-text'} title={value}>
      {value}
    </span>
  )
}

// Columns of different value types in one array: TanStack's documented way is `any` for the value type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RecordColumn = ColumnDef<WithdrawalRecord, any>

export function recordColumns(t: TFunction<'list'>): RecordColumn[] {
  const columns: RecordColumn[] = [
    col.accessor('createdAt', {
      id: 'createdAt',
      header: () => t('columns.createdAt'),
      cell: (c) => <DateTime iso={c.row.original.createdAt} />,
      sortDescFirst: true,
    }),
    // Accessors only so TanStack lets the column sort (it refuses display columns); main does the sorting.
    col.accessor((r) => r.remoteStatus ?? r.localState, {
      id: 'status',
      header: () => t('columns.status'),
      cell: (c) => (
        <StatusBadge
          status={c.row.original.remoteStatus}
          localState={c.row.original.localState}
          hasRefund={c.row.original.refund !== null}
        />
      ),
      enableSorting: true,
      sortDescFirst: false,
    }),
    col.display({
      id: 'pixKey',
      header: () => t('columns.pixKey'),
      cell: (c) => <Text value={c.row.original.pixKey} mono />,
      enableSorting: false,
    }),
    col.display({
      id: 'receiverName',
      header: () => t('columns.receiverName'),
      cell: (c) => <Text value={c.row.original.receiverName} />,
      enableSorting: false,
    }),
    col.accessor('amountCents', {
      id: 'amount',
      header: () => t('columns.amount'),
      cell: (c) => (
        <>
          <Brl cents={c.row.original.amountCents} />{' '}
          <span className="amount-kind">({t(`amountKind.${c.row.original.amountKind}`)})</span>
        </>
      ),
      enableSorting: true,
      sortDescFirst: true,
    }),
    col.display({
      id: 'payout',
      header: () => t('columns.payout'),
      cell: (c) => <Brl cents={c.row.original.payoutAmountCents} />,
      enableSorting: false,
    }),
    col.display({
      id: 'remoteId',
      header: () => t('columns.remoteId'),
      cell: (c) => <Text value={c.row.original.remoteId} mono />,
      enableSorting: false,
    }),
    col.display({
      id: 'localId',
      header: () => t('columns.localId'),
      cell: (c) => (
        <span className="mono cell-text" title={c.row.original.localId}>
          {shortId(c.row.original.localId)}
        </span>
      ),
      enableSorting: false,
    }),
    col.accessor('updatedAt', {
      id: 'updatedAt',
      header: () => t('columns.updatedAt'),
      cell: (c) => <DateTime iso={c.row.original.updatedAt} />,
      sortDescFirst: true,
    }),
  ]
  return columns
}
