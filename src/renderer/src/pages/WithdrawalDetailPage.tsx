/**
 * One withdrawal, the lead and the problem first (issue #26): the lead sentence, what needs attention (flags,
 * unknown outcome, funding), the payee and references (with the payee check), the refund; then the rest as tabs —
 * the summary of facts (first), the Pix payout, the stored receipt, the status history and the technical details —
 * so the page at 1024×700 is under two screens instead of four. The tab list is one keyboard stop (arrows,
 * Home/End move along it) and each panel is the next.
 * "Consultar agora" asks the service; events keep the page current.
 */
import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../shared/contract'
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'
import { FlagAlerts, FundingStatus, UnknownOutcomeNotice } from '../components/detail/RecordAlerts'
import { PayoutInfo } from '../components/detail/PayoutInfo'
import { PaymentContext } from '../components/payees/PaymentContext'
import { ReceiptViewer } from '../components/receipts/ReceiptViewer'
import { RecordSummary, RecordTechnicalFacts } from '../components/detail/RecordSummary'
import { RefundInfo } from '../components/detail/RefundInfo'
import { RequestInfo } from '../components/detail/RequestInfo'
import { ResolveUnknownDialog } from '../components/detail/ResolveUnknownDialog'
import { StatusTimeline } from '../components/detail/StatusTimeline'
import { useWithdrawalDetail } from '../components/detail/useWithdrawalDetail'
import { ErrorNotice } from '../components/ErrorNotice'
import { formatDateTime } from '../components/format'
import { shortId } from '../components/records-table/columns'
import { leadKind, RecordLead } from '../components/layout/LeadSentence'
import { payeeOf, payeeText, payoutCentsOf } from '../components/layout/payee'
import { TechnicalDetails } from '../components/layout/TechnicalDetails'
import { PageHeader } from '../components/ui/PageHeader'
import { Tabs, type TabItem } from '../components/ui/Tabs'
import { formatBRL } from '../../../shared/money'
import { currentLanguage } from '../i18n'
import { call } from '../ipc'
import { useApp } from '../stores/app'
import { useRoute } from '../stores/route'

function Section({
  id,
  title,
  children,
}: {
  id: string
  title: string
  children: React.ReactNode
}): React.JSX.Element {
  return (
    <section className="card" aria-labelledby={id} data-testid={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  )
}

function CheckNow({ record, onDone }: { record: WithdrawalRecord; onDone: () => void }): React.JSX.Element {
  const { t } = useTranslation('detail')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const [checkedAt, setCheckedAt] = useState<string | null>(null)
  const canCheck = record.localState === 'created' && record.remoteId !== null
  const check = async (): Promise<void> => {
    setBusy(true)
    setError(null)
    const r = await call('withdrawals:refresh', { localId: record.localId })
    setBusy(false)
    if (r.ok) {
      setCheckedAt(r.data.remoteCheckedAt)
      onDone()
    } else setError(r.error)
  }
  return (
    <div className="check-now">
      <button
        type="button"
        className="btn"
        disabled={!canCheck || busy}
        aria-describedby="check-now-hint"
        onClick={() => void check()}
      >
        {busy ? t('checking') : t('checkNow')}
      </button>{' '}
      <span id="check-now-hint" className="field-hint">
        {canCheck ? t('checkNowHint') : t('checkNowUnavailable')}
      </span>
      <p aria-live="polite" className="field-ok">
        {checkedAt && t('checked', { time: formatDateTime(checkedAt, currentLanguage()) })}
      </p>
      {error && <ErrorNotice error={error} />}
    </div>
  )
}

export function WithdrawalDetailPage({ localId }: { localId: string }): React.JSX.Element {
  const { t } = useTranslation(['detail', 'layout'])
  const go = useRoute((s) => s.go)
  const network = useApp((s) => s.info?.network)
  const { detail, error, reload } = useWithdrawalDetail(localId)
  const [tab, setTab] = useState<string | null>(null)
  const [resolving, setResolving] = useState(false)
  const [resolved, setResolved] = useState<{ how: 'linked' | 'notCreated'; id: string | null } | null>(null)

  const lang = currentLanguage()
  const titled = detail?.record
  const payout = titled ? (payoutCentsOf(titled) ?? titled.amountCents) : null
  const header = (
    <PageHeader
      id="detail-title"
      title={
        titled && payout !== null
          ? t('layout:detail.title', {
              amount: formatBRL(payout, lang),
              payee: payeeText(payeeOf(titled, detail?.run?.payee ?? null)),
            })
          : t('title', { id: shortId(localId) })
      }
      actions={
        <button type="button" className="btn" onClick={() => go({ page: 'withdrawals' })}>
          <span aria-hidden="true">← </span>
          {t('back')}
        </button>
      }
    />
  )
  if (!detail) {
    return (
      <section className="page page-detail" aria-labelledby="detail-title">
        {header}
        {error ? (
          <>
            <ErrorNotice error={error} />
            <button type="button" className="btn" onClick={() => void reload()}>
              {t('checkNow')}
            </button>
          </>
        ) : (
          <p aria-live="polite">{t('loading')}</p>
        )}
      </section>
    )
  }
  const r = detail.record
  const kind = leadKind(r)
  const more: TabItem[] = []
  const add = (id: string, panel: () => ReactNode): void => {
    more.push({ id, label: t(`tabs.${id}`), panel })
  }
  // The facts repeat much of the lead (status, amount, payee): the first tab, not a section above the problem's.
  add('summary', () => (
    <Section id="detail-summary" title={t('sections.summary')}>
      <RecordSummary record={r} run={detail.run} onOpenRun={(runId) => go({ page: 'runs', runId })} />
    </Section>
  ))
  if (kind === 'paid' || kind === 'processing' || payeeOf(r).name !== null) {
    add('payout', () => (
      <Section id="detail-payout" title={t('sections.payout')}>
        <PayoutInfo record={r} network={network} />
      </Section>
    ))
  }
  if (kind === 'paid') add('receipt', () => <ReceiptViewer localId={r.localId} />)
  add('timeline', () => (
    <Section id="detail-timeline" title={t('sections.timeline')}>
      <StatusTimeline observations={detail.observations} />
    </Section>
  ))
  add('technical', () => (
    <TechnicalDetails open>
      <RecordTechnicalFacts record={r} />
      <h4>{t('sections.request')}</h4>
      <RequestInfo record={r} />
    </TechnicalDetails>
  ))
  return (
    <section className="page page-detail" aria-labelledby="detail-title" data-local-id={r.localId}>
      {header}
      <RecordLead record={r} funding={detail.funding} runPayee={detail.run?.payee ?? null} />
      {error && <ErrorNotice error={error} />}
      {resolved && (
        <div className="alert alert-ok" role="status" data-testid="resolved-notice">
          <p>
            {resolved.how === 'linked' ? t('resolved.linked', { id: resolved.id }) : t('resolved.notCreated')}
          </p>
        </div>
      )}
      <FlagAlerts flags={r.flags} />
      {r.localState === 'outcome_unknown' && <UnknownOutcomeNotice onResolve={() => setResolving(true)} />}
      <FundingStatus detail={detail} onOpenFunding={() => go({ page: 'funding', localId: r.localId })} />
      <CheckNow record={r} onDone={() => void reload()} />

      <PaymentContext record={r} />
      {r.refund && (
        <Section id="detail-refund" title={t('sections.refund')}>
          <RefundInfo refund={r.refund} network={network} />
        </Section>
      )}
      <div data-testid="detail-more">
        <Tabs items={more} value={tab ?? 'summary'} onChange={setTab} label={t('tabs.label')} keepMounted />
      </div>

      {resolving && (
        <ResolveUnknownDialog
          record={r}
          onClose={() => setResolving(false)}
          onResolved={(rec, how) => {
            setResolving(false)
            setResolved({ how, id: rec.remoteId })
            void reload()
          }}
        />
      )}
    </section>
  )
}
