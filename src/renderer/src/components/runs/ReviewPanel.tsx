/**
 * Review and approval: totals, fees, groups, duplicate decisions, and approval by typing the control total (what
 * arrives by Pix, from the approver's own ERP or spreadsheet: it is not printed beside the field), or rejection
 * with a reason.
 */
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { RunDetailView } from '../../../../shared/channels-runs'
import type { IpcError } from '../../../../shared/contract'
import { formatBRL, parseBRLToCents } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { call } from '../../ipc'
import { CopyButton } from '../CopyButton'
import { Brl, DateTime } from '../format'
import { AddressGroups } from '../funding/FundingInstructions'
import { SafeText } from '../SafeText'
import { RejectRun } from './RejectRun'
import { RunErrorNotice } from './run-error'
import { useDeskRefundCheck } from './useDeskRefundCheck'

type Group = RunDetailView['summary']['byCategory'][number]

function GroupTable({ caption, groups }: { caption: string; groups: Group[] }): React.JSX.Element {
  const { t } = useTranslation('runs')
  return (
    <table className="data data-grid">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{caption}</th>
          <th scope="col" className="num-col">
            {t('review.count')}
          </th>
          <th scope="col" className="num-col">
            {t('review.payout')}
          </th>
          <th scope="col" className="num-col">
            {t('review.deposit')}
          </th>
        </tr>
      </thead>
      <tbody>
        {groups.map((g) => (
          <tr key={g.key}>
            <td>{g.key ? <SafeText text={g.key} /> : t('review.none')}</td>
            <td className="num num-col">{g.count}</td>
            <td className="num-col">
              <Brl cents={g.payoutCents} />
            </td>
            <td className="num-col">
              <Brl cents={g.depositCents} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The lines of each refund address of the rows to pay, in the file's order. */
function refundGroups(rows: RunDetailView['rows']): Map<string, number[]> {
  const groups = new Map<string, number[]>()
  for (const r of rows) {
    if (r.state === 'dropped') continue
    const lines = groups.get(r.draft.refundAddress) ?? []
    lines.push(r.line)
    groups.set(r.draft.refundAddress, lines)
  }
  return groups
}

/**
 * Where a failed payout returns the deposit, per row (issue #24): the approver sees every refund address of the
 * run, grouped (usually one: the profile's), with the lines that use it, copyable. An address that is not a
 * registered one is marked (issue #26): on a team, not one of the team's treasury addresses, as on a single
 * payment's approval; on a single desk, neither the profile's default refund address nor its wallet's.
 */
function RefundAddresses({
  groups,
  unregistered,
  registry,
}: {
  groups: Map<string, number[]>
  /** null: no registry to compare with (yet). */
  unregistered: ReadonlySet<string> | null
  registry: 'team' | 'desk'
}): React.JSX.Element {
  const { t } = useTranslation(['runs', 'approvals'])
  return (
    <table className="data data-grid" data-testid="run-refund-addresses">
      <caption>{t('review.refundAddresses')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('review.refundAddress')}</th>
          <th scope="col">{t('review.refundLines')}</th>
        </tr>
      </thead>
      <tbody>
        {[...groups].map(([address, lines]) => (
          <tr key={address} data-refund-address={address}>
            <td>
              <AddressGroups address={address} /> <CopyButton text={address} />
              {unregistered?.has(address) && (
                <p className="alert alert-warn" role="note" data-testid="run-refund-unregistered">
                  {registry === 'team'
                    ? t('approvals:refundUnregistered')
                    : t('review.refundUnregisteredDesk')}
                </p>
              )}
            </td>
            <td className="num">{lines.join(', ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export function ReviewPanel({
  detail,
  onChange,
}: {
  detail: RunDetailView
  onChange: (d: RunDetailView) => void
}): React.JSX.Element {
  const { t } = useTranslation('runs')
  const lang = currentLanguage()
  const { run, summary } = detail
  const [typed, setTyped] = useState('')
  const [error, setError] = useState<IpcError | null>(null)
  // Approving removes the form the focus was in: the confirmation that replaces it takes the focus.
  const [approvedHere, setApprovedHere] = useState(false)
  const approvedRef = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    if (approvedHere && run.state !== 'draft') approvedRef.current?.focus()
  }, [approvedHere, run.state])
  const dups = detail.rows.filter((r) => r.duplicate !== null)
  const refunds = refundGroups(detail.rows)
  // Marked before anything is sent: a run in review (draft) or approved and not yet started.
  const deskCheck = useDeskRefundCheck(
    [...refunds.keys()],
    detail.approval === null && (run.state === 'draft' || run.state === 'approved'),
  )
  // Four-eyes on a team ledger (issue #16): absent on this computer's ledger.
  const fourEyes = detail.approval?.needed === true
  const asked = detail.approval?.requestedBy
    ? { ...detail.approval, requestedBy: detail.approval.requestedBy }
    : null

  const decide = async (idx: number, decision: 'keep' | 'drop'): Promise<void> => {
    const r = await call('runs:decide', { runId: run.runId, idx, decision })
    if (r.ok) onChange(r.data)
    else setError(r.error)
  }
  const approve = async (e: React.FormEvent): Promise<void> => {
    e.preventDefault()
    setError(null)
    const cents = parseBRLToCents(typed, lang)
    if (cents === null) {
      setError({ code: 'total_mismatch', message: 'mismatch' })
      return
    }
    const r = await call('runs:approve', { runId: run.runId, confirmPayoutCents: cents })
    if (r.ok) {
      setApprovedHere(true)
      onChange(r.data)
    } else setError(r.error)
  }

  return (
    <section className="card" aria-labelledby="run-review-heading">
      <h3 id="run-review-heading">{t('review.heading')}</h3>
      <dl className="facts" data-testid="run-totals">
        <dt>{t('review.count')}</dt>
        <dd className="num" data-testid="run-count">
          {summary.count}
        </dd>
        <dt>{t('review.payout')}</dt>
        <dd>
          <Brl cents={summary.payoutCents} />
        </dd>
        <dt>{t('review.deposit')}</dt>
        <dd data-testid="run-deposit-total">
          <Brl cents={summary.depositCents} />
        </dd>
        <dt>{t('review.fees')}</dt>
        <dd>
          <Brl cents={summary.feeCents} />
        </dd>
      </dl>
      {summary.dropped > 0 && <p>{t('review.dropped', { count: summary.dropped })}</p>}
      <RefundAddresses
        groups={refunds}
        unregistered={detail.approval ? new Set(detail.approval.unregisteredRefunds) : deskCheck}
        registry={detail.approval ? 'team' : 'desk'}
      />
      <GroupTable caption={t('review.byCategory')} groups={summary.byCategory} />
      <GroupTable caption={t('review.byCostCentre')} groups={summary.byCostCentre} />
      {dups.length > 0 && (
        <div data-testid="run-duplicates">
          <h4>{t('duplicates.heading', { count: summary.undecided })}</h4>
          <ul>
            {dups.map((r) => (
              <li key={r.idx} data-line={r.line}>
                <strong>
                  {r.line}: <SafeText text={r.draft.pixKey} /> · {formatBRL(r.draft.amount.cents, lang)}
                </strong>{' '}
                {r.duplicate!.lines.length > 0 &&
                  t('duplicates.inFile', { lines: r.duplicate!.lines.join(', ') })}{' '}
                {r.duplicate!.ledger.length > 0 &&
                  t('duplicates.inLedger', { count: r.duplicate!.ledger.length })}{' '}
                {r.decision ? (
                  <em>{r.decision === 'keep' ? t('duplicates.kept') : t('duplicates.dropped')}</em>
                ) : null}{' '}
                {(run.state === 'draft' || run.state === 'approved') && (
                  <>
                    <button type="button" className="btn" onClick={() => void decide(r.idx, 'keep')}>
                      {t('duplicates.keep')}
                    </button>{' '}
                    <button type="button" className="btn" onClick={() => void decide(r.idx, 'drop')}>
                      {t('duplicates.drop')}
                    </button>
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {run.state === 'draft' && asked?.mine ? (
        <p data-testid="run-approval-waiting">{t('approve.waitingMine', { who: asked.requestedBy })}</p>
      ) : run.state === 'draft' ? (
        <form onSubmit={(e) => void approve(e)} data-testid="approve-form">
          <h4>{t('approve.heading')}</h4>
          {asked && (
            <p data-testid="run-approval-asked">{t('approve.waitingOther', { who: asked.requestedBy })}</p>
          )}
          {fourEyes && !asked && <p data-testid="run-approval-needed">{t('approve.fourEyesAsk')}</p>}
          <p id="run-approve-help">{t('approve.help')}</p>
          <label className="field">
            <span>{t('approve.label')}</span>
            <input
              inputMode="decimal"
              autoComplete="off"
              aria-describedby="run-approve-help"
              data-testid="run-approve-total"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
          </label>
          <button type="submit" className="btn btn-primary">
            {fourEyes && !asked ? t('approve.askButton') : t('approve.button')}
          </button>
        </form>
      ) : run.state === 'cancelled' && detail.approval?.rejectedBy ? (
        <p data-testid="run-rejected">
          {t('approve.rejected', {
            who: detail.approval.rejectedBy,
            reason: detail.approval.rejectedReason ?? '—',
          })}
        </p>
      ) : (
        run.approvedAt && (
          <p data-testid="run-approved" ref={approvedRef} tabIndex={-1}>
            {t('approve.approved', { who: run.approvedBy ?? '' })} <DateTime iso={run.approvedAt} />
          </p>
        )
      )}
      {run.state === 'draft' && asked && !asked.mine && (
        <RejectRun runId={run.runId} onChange={onChange} onError={setError} />
      )}
      {error && <RunErrorNotice error={error} />}
    </section>
  )
}
