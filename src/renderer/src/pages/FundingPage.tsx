/**
 * Funding a created withdrawal: where to send the DePix, exactly how much, until when, and what happens if the
 * amount differs. Instructions are shown only as main built them (deposit address checked); when main reports a
 * funding problem the page says so loudly and shows nothing payable.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { FundingAlert, IpcError, WithdrawalDetail } from '../../../shared/contract'
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'
import { ErrorNotice } from '../components/ErrorNotice'
import { DateTime } from '../components/format'
import { FundingInstructions } from '../components/funding/FundingInstructions'
import { RecordLead } from '../components/layout/LeadSentence'
import { ExpectedPayeeLine } from '../components/payees/PaymentContext'
import { TechnicalDetails } from '../components/layout/TechnicalDetails'
import { MarkFundedForm } from '../components/funding/MarkFundedForm'
import { FundingSeen } from '../components/wallet/FundingSeen'
import { RemoteOutcome } from '../components/funding/RemoteOutcome'
import { StatusBadge } from '../components/StatusBadge'
import { call, useEvent } from '../ipc'
import { useApp } from '../stores/app'
import { useRoute } from '../stores/route'
import { PageHeader } from '../components/ui/PageHeader'

/** Problems about the address itself: money sent anyway could be lost, so they are errors, not notes. */
const ADDRESS_PROBLEMS = new Set([
  'deposit_address_invalid',
  'deposit_address_changed',
  'no_deposit_address',
  // The service did not confirm the stored address and amount (issue #24): nothing payable, said loudly.
  'funding_mismatch',
  'funding_unconfirmed',
])

/** Nothing to send because the payment moved on: the lead sentence says what happened, so this is quiet. */
const QUIET_PROBLEMS = new Set(['terminal', 'not_awaiting_funding', 'not_created'])

function FundingProblem({
  problem,
  alert,
}: {
  problem: string
  alert: FundingAlert | null
}): React.JSX.Element {
  const { t, i18n } = useTranslation('funding')
  const known = i18n.exists(`funding:problems.${problem}`)
  const loud = ADDRESS_PROBLEMS.has(problem) || !known
  if (known && QUIET_PROBLEMS.has(problem)) {
    return (
      <p className="funding-status-note" data-testid="funding-problem" data-problem={problem}>
        {t(`problems.${problem}`)}
      </p>
    )
  }
  return (
    <div
      className={`alert ${loud ? 'alert-error' : 'alert-warn'}`}
      role="alert"
      data-testid="funding-problem"
      data-problem={problem}
    >
      <p className="alert-title">{loud ? t('problems.doNotSend') : t('problems.notPayable')}</p>
      <p>{known ? t(`problems.${problem}`) : t('problems.unknown', { code: problem })}</p>
      {alert?.kind === 'mismatch' && alert.fields.length > 0 && (
        <p data-testid="funding-alert-fields">
          {t('problems.mismatchFields', {
            fields: alert.fields.map((f) => t(`problems.alertFields.${f}`)).join(', '),
          })}
        </p>
      )}
    </div>
  )
}

function StatusLine({
  record,
  onRefreshed,
}: {
  record: WithdrawalRecord
  onRefreshed: () => void
}): React.JSX.Element {
  const { t } = useTranslation('funding')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const refresh = async (): Promise<void> => {
    setBusy(true)
    setError(null)
    const r = await call('withdrawals:refresh', { localId: record.localId })
    setBusy(false)
    if (r.ok) onRefreshed()
    else setError(r.error)
  }
  return (
    <div className="status-line">
      <p data-testid="funding-status" data-status={record.remoteStatus ?? record.localState}>
        {t('status.label')}:{' '}
        <StatusBadge
          status={record.remoteStatus}
          localState={record.localState}
          hasRefund={record.refund !== null}
        />
        {record.remoteCheckedAt && (
          <span className="field-hint">
            {' '}
            · {t('status.checkedAt')} <DateTime iso={record.remoteCheckedAt} />
          </span>
        )}{' '}
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => void refresh()}>
          {busy ? t('status.refreshing') : t('status.refresh')}
        </button>
      </p>
      {error && <ErrorNotice error={error} />}
    </div>
  )
}

export function FundingPage({ localId }: { localId: string }): React.JSX.Element {
  const { t } = useTranslation('funding')
  const go = useRoute((s) => s.go)
  const [detail, setDetail] = useState<WithdrawalDetail | null>(null)
  const [error, setError] = useState<IpcError | null>(null)
  // Arriving here (after Create, or from a link) puts keyboard and screen reader users at the page title.
  const headingRef = useRef<HTMLHeadingElement>(null)
  useEffect(() => headingRef.current?.focus(), [localId])

  const load = useCallback(async (): Promise<void> => {
    const r = await call('withdrawals:get', { localId })
    if (r.ok) {
      setDetail(r.data)
      setError(null)
    } else setError(r.error)
  }, [localId])

  useEffect(() => {
    let live = true
    void call('withdrawals:get', { localId }).then((r) => {
      if (!live) return
      if (r.ok) setDetail(r.data)
      else setError(r.error)
    })
    return () => {
      live = false
    }
  }, [localId])

  useEvent('withdrawal:changed', (r) => {
    if (r.localId === localId) void load()
  })

  const record = detail?.record
  // Sandbox deposit addresses are real mainnet addresses that belong to nobody: real DePix sent there is lost.
  const sandbox = useApp((st) => st.info?.sandbox ?? false)
  return (
    <div className="page funding-page" data-local-id={localId}>
      <PageHeader title={t('title')} headingRef={headingRef} />
      {error && <ErrorNotice error={error} />}
      {!detail && !error && <p>{t('loading')}</p>}
      {detail && record && (
        <>
          <RecordLead record={record} funding={detail.funding} />
          {/* The address and QR come right after the lead: above the fold at 1024×700 (issue #26). */}
          {detail.fundingProblem !== null || detail.funding === null ? (
            <FundingProblem
              problem={detail.fundingProblem ?? 'no_instructions'}
              alert={detail.fundingAlert}
            />
          ) : (
            // The Sandbox's warning sits under the address it is about, inside the instructions: the QR stays
            // above the fold at 1024×700 with a team's status line and a pop-up above the page.
            <FundingInstructions
              funding={detail.funding}
              addressNotice={
                sandbox && (
                  <div
                    className="alert alert-warn alert-compact"
                    role="note"
                    data-testid="sandbox-address-warning"
                  >
                    <p className="alert-title">{t('sandboxAddress')}</p>
                  </div>
                )
              }
            />
          )}
          <ExpectedPayeeLine record={record} />
          <StatusLine record={record} onRefreshed={() => void load()} />
          <FundingSeen
            record={record}
            otherwise={
              detail.fundingProblem === null &&
              detail.funding !== null && <MarkFundedForm record={record} onMarked={() => void load()} />
            }
          />
          <RemoteOutcome record={record} />
          <TechnicalDetails>
            <dl>
              <dt>{t('remoteId')}</dt>
              <dd>{record.remoteId ? <code className="mono">{record.remoteId}</code> : '—'}</dd>
              <dt>{t('summary', { pixKey: record.pixKey })}</dt>
              <dd>
                <DateTime iso={record.createdAt} />
              </dd>
              {detail.funding && (
                <>
                  <dt>{t('instructions.asset')}</dt>
                  <dd>
                    <code className="mono">{detail.funding.assetId}</code>
                  </dd>
                </>
              )}
            </dl>
          </TechnicalDetails>
          <div className="actions">
            <button type="button" className="btn" onClick={() => go({ page: 'detail', localId })}>
              {t('openDetail')}
            </button>
            <button type="button" className="btn" onClick={() => go({ page: 'newWithdrawal' })}>
              {t('newWithdrawal')}
            </button>
          </div>
        </>
      )}
    </div>
  )
}
