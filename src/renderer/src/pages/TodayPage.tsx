/**
 * Hoje: the default landing page. What waits for a deposit (with countdowns), what needs action, what was paid
 * today, returns to reconcile, and totals for today and this month. Every line opens its record. Reads only the
 * list channel (`withdrawals:list`), refreshed on `withdrawal:changed`.
 */
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError, RecordPageView } from '../../../shared/contract'
import { formatBRL } from '../../../shared/money'
import { RECORD_FLAGS, type RecordFilter, type WithdrawalRecord } from '../../../shared/withdrawal-record'
import { ErrorNotice } from '../components/ErrorNotice'
import { DepositAttention } from '../components/deposits/DepositAttention'
import { CaixaCard } from '../components/wallet/CaixaCard'
import { formatDateTime } from '../components/format'
import { timeLeft } from '../components/layout/deadline'
import { depositCentsOf, payeeOf, payeeText, payoutCentsOf } from '../components/layout/payee'
import {
  todayTotals,
  monthStartIso,
  todayStartIso,
  withoutReconciled,
  type TodayTotals,
} from '../components/layout/today-model'
import { ReconcileRefund } from '../components/layout/ReconcileRefund'
import { TodayApprovals, TodayRuns } from '../components/layout/TodayRuns'
import { useNowTick } from '../components/layout/useNow'
import { RecordStatus } from '../components/RecordStatus'
import { currentLanguage } from '../i18n'
import { call, useEvent } from '../ipc'
import { useRoute } from '../stores/route'
import { PageHeader } from '../components/ui/PageHeader'

const LIMIT = 50

type LineKind = 'awaiting' | 'attention' | 'sending' | 'mismatches' | 'paid' | 'returns'
const DAY_MS = 86_400_000
/** After a line's own action (a refund marked reconciled): read the page again, or say why it failed. */
interface Reload {
  done: () => void
  error: (e: IpcError) => void
}

interface TodayData {
  awaiting: RecordPageView
  attention: RecordPageView
  sending: RecordPageView
  mismatches: RecordPageView
  paid: RecordPageView
  returns: RecordPageView
  today: TodayTotals
  month: TodayTotals
}

async function list(filter: RecordFilter): Promise<RecordPageView> {
  const r = await call('withdrawals:list', filter)
  if (!r.ok) throw r.error
  return r.data
}

async function loadToday(now: number): Promise<TodayData> {
  const dayStart = todayStartIso(now)
  const monthStart = monthStartIso(now)
  // Paid money counts on the day the Pix was paid (its first "paid" in the status history), whatever day the
  // payment was created; what is still open or came back counts by creation. Each row of Totals says which.
  const [awaiting, attention, sending, paid, returns, paidDay, paidMonth, createdDay, createdMonth] =
    await Promise.all([
      list({ statuses: ['unsent'], sort: { field: 'createdAt', dir: 'asc' }, limit: LIMIT }),
      list({ attention: true, sort: { field: 'updatedAt', dir: 'desc' }, limit: LIMIT }),
      list({ statuses: ['sending'], sort: { field: 'updatedAt', dir: 'desc' }, limit: LIMIT }),
      list({
        statuses: ['sent'],
        dateBasis: 'paid',
        from: dayStart,
        sort: { field: 'updatedAt', dir: 'desc' },
        limit: LIMIT,
      }),
      list({
        statuses: ['refunded', 'error'],
        from: new Date(now - 30 * DAY_MS).toISOString(),
        sort: { field: 'updatedAt', dir: 'desc' },
        limit: LIMIT,
      }),
      list({ dateBasis: 'paid', from: dayStart, limit: 1 }),
      list({ dateBasis: 'paid', from: monthStart, limit: 1 }),
      list({ from: dayStart, limit: 1 }),
      list({ from: monthStart, limit: 1 }),
    ])
  // The soonest deadline first.
  const byDeadline = [...awaiting.rows].sort((a, b) =>
    (a.expiration ?? '9999').localeCompare(b.expiration ?? '9999'),
  )
  // Refunds already marked reconciled leave "Devoluções a conciliar" (an audit entry each; issue #26).
  const marked = await call('withdrawals:reconciledRefunds', { localIds: returns.rows.map((r) => r.localId) })
  if (!marked.ok) throw marked.error
  // Mismatches are among what needs action (main's attention rule); their own card says why.
  const mismatched = attention.rows.filter((r) => r.flags.includes(RECORD_FLAGS.payeeMismatch))
  return {
    awaiting: { ...awaiting, rows: byDeadline },
    attention,
    sending,
    mismatches: { ...attention, rows: mismatched, total: mismatched.length },
    paid,
    returns: withoutReconciled(returns, marked.data),
    today: todayTotals(paidDay.totals, createdDay.totals),
    month: todayTotals(paidMonth.totals, createdMonth.totals),
  }
}

function Line({
  record,
  kind,
  now,
  reload,
  runPayee = null,
}: {
  record: WithdrawalRecord
  kind: LineKind
  now: number
  reload?: Reload
  /** The name on the spreadsheet row of the run it came from (names first). */
  runPayee?: string | null
}): React.JSX.Element {
  const { t } = useTranslation('layout')
  const payee = payeeText(payeeOf(record, runPayee))
  const go = useRoute((s) => s.go)
  const lang = currentLanguage()
  const payout = payoutCentsOf(record)
  const deposit = depositCentsOf(record)
  const left = timeLeft(record.expiration, now)
  const open = (): void =>
    go(
      kind === 'awaiting'
        ? { page: 'funding', localId: record.localId }
        : { page: 'detail', localId: record.localId },
    )
  const amount =
    kind === 'returns'
      ? deposit === null
        ? '—'
        : formatBRL(deposit, lang)
      : payout === null
        ? '—'
        : formatBRL(payout, lang)
  return (
    <li>
      <button type="button" className="today-line" onClick={open} data-local-id={record.localId}>
        <span className="today-payee" title={payee}>
          {payee}
        </span>
        <span className="today-amount num">{amount}</span>
        <span className="today-when">
          {kind === 'awaiting' && left.state === 'running' && (
            <span
              className={left.soon ? 'deadline deadline-soon num' : 'deadline num'}
              data-testid="today-countdown"
            >
              {t('list.left', { time: left.text })}
            </span>
          )}
          {kind === 'awaiting' && left.state === 'expired' && (
            <span className="deadline deadline-expired">{t('list.expiredShort')}</span>
          )}
          {kind !== 'awaiting' && <RecordStatus record={record} showReason={kind === 'mismatches'} />}
          {kind === 'paid' && (
            <span className="field-hint">
              {' '}
              {formatDateTime(record.remoteStatusAt ?? record.updatedAt, lang)}
            </span>
          )}
        </span>
      </button>
      {kind === 'returns' && reload && (
        <ReconcileRefund localId={record.localId} payee={payee} onDone={reload.done} onError={reload.error} />
      )}
    </li>
  )
}

/** The spreadsheet name of a run's payment on a page of the list (RecordPageView.runs), if any. */
function runPayeeOf(page: RecordPageView, localId: string): string | null {
  const runs = page.runs ?? {}
  return Object.hasOwn(runs, localId) ? (runs[localId]?.payee ?? null) : null
}

function Block({
  id,
  title,
  empty,
  page,
  kind,
  now,
  reload,
}: {
  id: string
  title: string
  empty: string
  page: RecordPageView
  kind: LineKind
  now: number
  reload?: Reload
}): React.JSX.Element {
  const { t } = useTranslation('layout')
  return (
    <section className={`card today-block today-${kind}`} aria-labelledby={id} data-testid={`today-${kind}`}>
      <h3 id={id}>
        {title} <span className="today-count num">{page.total}</span>
      </h3>
      {page.rows.length === 0 ? (
        <p className="field-hint">{empty}</p>
      ) : (
        <ul className="today-lines">
          {page.rows.map((r) => (
            <Line
              key={r.localId}
              record={r}
              kind={kind}
              now={now}
              reload={reload}
              runPayee={runPayeeOf(page, r.localId)}
            />
          ))}
        </ul>
      )}
      {page.total > page.rows.length && (
        <p className="field-hint">{t('today.showing', { shown: page.rows.length, total: page.total })}</p>
      )}
    </section>
  )
}

function Totals({ today, month }: { today: TodayTotals; month: TodayTotals }): React.JSX.Element {
  const { t } = useTranslation('layout')
  const lang = currentLanguage()
  // R$ where a person reads (1 DePix = R$ 1,00); the 8-decimal DePix form is for what is copied to a wallet.
  const rows: Array<[string, (m: TodayTotals) => string, string, 'paid' | 'created']> = [
    [t('today.paidRow'), (m) => formatBRL(m.paidCents, lang), 'paid', 'paid'],
    [t('today.paidCount'), (m) => new Intl.NumberFormat(lang).format(m.paidCount), 'paid-count', 'paid'],
    [t('today.feesRow'), (m) => formatBRL(m.feeCents, lang), 'fees', 'paid'],
    [t('today.openRow'), (m) => formatBRL(m.openDepositCents, lang), 'open', 'created'],
    [t('today.returnedRow'), (m) => formatBRL(m.returnedDepositCents, lang), 'returned', 'created'],
  ]
  return (
    <section className="card today-totals" aria-labelledby="today-totals" data-testid="today-totals">
      <h3 id="today-totals">{t('today.totals')}</h3>
      <table className="data">
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">{t('today.totals')}</span>
            </th>
            <th scope="col" className="num-col">
              {t('today.todayCol')}
            </th>
            <th scope="col" className="num-col">
              {t('today.monthCol')}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, f, id, basis]) => (
            <tr key={id} data-total={id} data-basis={basis}>
              <th scope="row">
                {label} <span className="cell-note">{t(`today.by.${basis}`)}</span>
              </th>
              <td className="num-col num" data-testid={`today-${id}-day`}>
                {f(today)}
              </td>
              <td className="num-col num" data-testid={`today-${id}-month`}>
                {f(month)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="field-hint">{t('today.feesNote')}</p>
    </section>
  )
}

export function TodayPage(): React.JSX.Element {
  const { t } = useTranslation('layout')
  const go = useRoute((s) => s.go)
  const now = useNowTick()
  const [data, setData] = useState<TodayData | null>(null)
  const [error, setError] = useState<IpcError | null>(null)

  const load = useCallback(() => {
    loadToday(Date.now()).then(
      (d) => {
        setData(d)
        setError(null)
      },
      (e: IpcError) => setError(e),
    )
  }, [])
  useEffect(load, [load])
  useEvent('withdrawal:changed', load)

  return (
    <section className="page" aria-labelledby="today-title">
      <PageHeader
        id="today-title"
        title={t('today.title')}
        lead={t('today.intro')}
        actions={
          <button type="button" className="btn btn-primary" onClick={() => go({ page: 'newWithdrawal' })}>
            {t('today.newPayment')}
          </button>
        }
      />
      {error && <ErrorNotice error={error} />}
      {!data && !error && <p aria-live="polite">{t('today.loading')}</p>}
      {data && (
        <div className="today-grid">
          <Block
            id="today-h-awaiting"
            title={t('today.awaiting')}
            empty={t('today.awaitingEmpty')}
            page={data.awaiting}
            kind="awaiting"
            now={now}
          />
          <Block
            id="today-h-attention"
            title={t('today.attention')}
            empty={t('today.attentionEmpty')}
            page={data.attention}
            kind="attention"
            now={now}
          />
          <Block
            id="today-h-sending"
            title={t('today.sending')}
            empty={t('today.sendingEmpty')}
            page={data.sending}
            kind="sending"
            now={now}
          />
          <Block
            id="today-h-mismatches"
            title={t('today.mismatches')}
            empty={t('today.mismatchesEmpty')}
            page={data.mismatches}
            kind="mismatches"
            now={now}
          />
          <TodayRuns />
          <TodayApprovals />
          <Block
            id="today-h-paid"
            title={t('today.paidToday')}
            empty={t('today.paidTodayEmpty')}
            page={data.paid}
            kind="paid"
            now={now}
          />
          <Block
            id="today-h-returns"
            title={t('today.returns')}
            empty={t('today.returnsEmpty')}
            page={data.returns}
            kind="returns"
            now={now}
            reload={{ done: load, error: setError }}
          />
          <DepositAttention />
          <CaixaCard />
          <Totals today={data.today} month={data.month} />
        </div>
      )}
    </section>
  )
}
