/** Columns of the records table. Ids of sortable columns are main's sort fields, so sort state maps 1:1. */
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table'
import type { TFunction } from 'i18next'
import type { RunLink } from '../../../../shared/run-link'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { useTranslation } from 'react-i18next'
import { Brl } from '../format'
import { DateCell } from '../ui/cells'
import { timeLeft } from '../layout/deadline'
import { leadKind } from '../layout/LeadSentence'
import { payeeOf, payeeText, payoutCentsOf } from '../layout/payee'
import { useNowTick } from '../layout/useNow'
import { RecordStatus } from '../RecordStatus'

const col = createColumnHelper<WithdrawalRecord>()

/**
 * Share of the table's width per column: the table is as wide as its box (no horizontal scroll at 1280 px)
 * and fixed, so the layout does not jump as rows load and unload while scrolling. From WIDE_MEDIA on, the NF and
 * centro de custo have columns of their own (issue #26); below it two such columns would crowd the amounts and
 * statuses out, so they share one, NF on the first line and centro de custo on the second, as the Lote does.
 */
export const COLUMN_WIDTHS: Readonly<Record<string, string>> = {
  payee: '20%',
  amount: '14%',
  status: '23%',
  references: '11%',
  run: '9%',
  deadline: '8%',
  createdAt: '15%',
}
export const WIDE_COLUMN_WIDTHS: Readonly<Record<string, string>> = {
  payee: '18%',
  amount: '12%',
  status: '20%',
  invoice: '10%',
  costCentre: '10%',
  run: '10%',
  deadline: '8%',
  createdAt: '12%',
}
export const WIDE_MEDIA = '(min-width: 1200px)'

/** The first 8 characters identify a record among thousands; the full id is in the title and on the detail. */
export function shortId(id: string): string {
  return id.length > 8 ? `${id.slice(0, 8)}…` : id
}

// Columns of different value types in one array: TanStack's documented way is `any` for the value type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RecordColumn = ColumnDef<WithdrawalRecord, any>

function Payee({ record, run }: { record: WithdrawalRecord; run?: RunLink }): React.JSX.Element {
  const p = payeeOf(record, run?.payee ?? null)
  return (
    <span className="cell-payee">
      <span className="cell-text payee-main" title={payeeText(p)}>
        {p.name ?? p.pixKey}
      </span>
      {p.name && (
        <span className="cell-text payee-key" title={p.taxNumber ? `${p.pixKey} · ${p.taxNumber}` : p.pixKey}>
          {p.taxNumber ? `${p.taxNumber} · ` : ''}
          <span className="mono">{p.pixKey}</span>
        </span>
      )}
    </span>
  )
}

function Amount({ record, t }: { record: WithdrawalRecord; t: TFunction<'list'> }): React.JSX.Element {
  const payout = payoutCentsOf(record)
  if (payout !== null) return <Brl cents={payout} />
  return (
    <>
      <Brl cents={record.amountCents} />{' '}
      <span className="amount-kind">({t(`amountKind.${record.amountKind}`)})</span>
    </>
  )
}

/** A header that may not fit a narrow column: cut (or its short form), the whole on hover. */
function HeaderText({ text, short }: { text: string; short?: string }): React.JSX.Element {
  return (
    <span className="cell-text" title={text}>
      {short ?? text}
    </span>
  )
}

/** One reference (NF, centro de custo) of the payment, cut with the whole on hover; a dash when none was given. */
function Reference({ value }: { value: string | undefined }): React.JSX.Element {
  const v = value?.trim()
  if (!v) return <span>—</span>
  return (
    <span className="cell-text" title={v}>
      {v}
    </span>
  )
}

/**
 * NF and centro de custo in one narrow column: each on its line, cut with the whole on hover, a dash for the one
 * not given (the line keeps its place, so the second line is always the centro de custo).
 */
function References({ record }: { record: WithdrawalRecord }): React.JSX.Element {
  const invoice = record.references?.invoice?.trim()
  const costCentre = record.references?.costCentre?.trim()
  if (!invoice && !costCentre) return <span>—</span>
  return (
    <span className="cell-payee">
      <span className="cell-text ref-main" title={invoice} data-ref="invoice">
        {invoice || '—'}
      </span>
      <span className="cell-text payee-key" title={costCentre} data-ref="costCentre">
        {costCentre || '—'}
      </span>
    </span>
  )
}

/** The header of that column: the two names on the lines their values take. */
function ReferencesHeader({ tl }: { tl: TFunction<'layout'> }): React.JSX.Element {
  return (
    <span className="cell-payee">
      <HeaderText text={tl('list.invoice')} short={tl('list.invoiceShort')} />
      <HeaderText text={tl('list.costCentre')} short={tl('list.costCentreShort')} />
    </span>
  )
}

/** The run ("Lote") the payment came from: its name, the spreadsheet line under it; the whole on hover. */
function Run({ run }: { run: RunLink | undefined }): React.JSX.Element {
  const { t } = useTranslation('layout')
  if (!run) return <span aria-label={t('list.noRun')}>—</span>
  const line = t('list.runLine', { line: run.line })
  return (
    <span className="cell-payee" title={`${run.name} · ${line}`}>
      <span className="cell-text">{run.name}</span>
      <span className="cell-text payee-key">{line}</span>
    </span>
  )
}

function Deadline({ record }: { record: WithdrawalRecord }): React.JSX.Element {
  const { t } = useTranslation('layout')
  const now = useNowTick(1000)
  const awaiting = leadKind(record) === 'awaiting'
  if (!awaiting || !record.expiration) return <span aria-label={t('list.deadline')}>—</span>
  const left = timeLeft(record.expiration, now)
  if (left.state === 'expired')
    return <span className="deadline deadline-expired">{t('list.expiredShort')}</span>
  if (left.state !== 'running') return <span>—</span>
  return (
    <span
      className={left.soon ? 'deadline deadline-soon num' : 'deadline num'}
      data-testid="row-deadline"
      title={t('list.left', { time: left.text })}
    >
      <span className="visually-hidden">{t('list.leftPrefix')} </span>
      {left.compact}
    </span>
  )
}

export function recordColumns(
  t: TFunction<'list'>,
  tl: TFunction<'layout'>,
  /** The run ("Lote") of a row; null: the list has no runs (an opened export), no Lote column. */
  runOf: ((localId: string) => RunLink | undefined) | null,
  /** A wide window: the NF and centro de custo get columns of their own, else one column for both. */
  wide = false,
): RecordColumn[] {
  const columns: RecordColumn[] = [
    col.display({
      id: 'payee',
      header: () => tl('list.payee'),
      cell: (c) => <Payee record={c.row.original} run={runOf?.(c.row.original.localId)} />,
      enableSorting: false,
    }),
    // Accessors only so TanStack lets the column sort (it refuses display columns); main does the sorting.
    col.accessor('amountCents', {
      id: 'amount',
      header: () => tl('list.amount'),
      cell: (c) => <Amount record={c.row.original} t={t} />,
      enableSorting: true,
      sortDescFirst: true,
    }),
    col.accessor((r) => r.remoteStatus ?? r.localState, {
      id: 'status',
      header: () => tl('list.status'),
      cell: (c) => <RecordStatus record={c.row.original} />,
      enableSorting: true,
      sortDescFirst: false,
    }),
    col.display({
      id: 'deadline',
      header: () => tl('list.deadline'),
      cell: (c) => <Deadline record={c.row.original} />,
      enableSorting: false,
    }),
    col.accessor('createdAt', {
      id: 'createdAt',
      header: () => tl('list.createdAt'),
      cell: (c) => <DateCell iso={c.row.original.createdAt} stacked />,
      sortDescFirst: true,
    }),
  ]
  const beforeDeadline = columns.findIndex((c) => c.id === 'deadline')
  if (!wide) {
    columns.splice(
      beforeDeadline,
      0,
      col.display({
        id: 'references',
        header: () => <ReferencesHeader tl={tl} />,
        cell: (c) => <References record={c.row.original} />,
        enableSorting: false,
      }),
    )
  } else {
    columns.splice(
      beforeDeadline,
      0,
      col.display({
        id: 'invoice',
        header: () => <HeaderText text={tl('list.invoice')} />,
        cell: (c) => <Reference value={c.row.original.references?.invoice} />,
        enableSorting: false,
      }),
      col.display({
        id: 'costCentre',
        header: () => <HeaderText text={tl('list.costCentre')} short={tl('list.costCentreShort')} />,
        cell: (c) => <Reference value={c.row.original.references?.costCentre} />,
        enableSorting: false,
      }),
    )
  }
  if (runOf) {
    const at = columns.findIndex((c) => c.id === 'deadline')
    columns.splice(
      at,
      0,
      col.display({
        id: 'run',
        header: () => tl('list.run'),
        cell: (c) => <Run run={runOf(c.row.original.localId)} />,
        enableSorting: false,
      }),
    )
  }
  return columns
}
