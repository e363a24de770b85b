/**
 * One top-up ("compra de DePix"): amount, status in words, origin (ours or made outside the app), the QR to pay
 * while it is open, what the service said about the money (hold, reasons, Liquid txid), the MED alert, the
 * operator's resolution of an unknown outcome, the status history, and the raw answers under "Detalhes técnicos".
 * Follows `deposit:changed`, so the tracker's answers appear without a click.
 */
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { DepositDetail } from '../../../shared/channels-deposits'
import type { IpcError } from '../../../shared/contract'
import { isPaidDepositStatus } from '../../../shared/deposit-status'
import { ErrorNotice } from '../components/ErrorNotice'
import { DepositAlerts, DepositMoneyFacts } from '../components/deposits/DepositFacts'
import { DepositStatusBadge, depositStatusOf } from '../components/deposits/DepositStatus'
import { DepositTimeline } from '../components/deposits/DepositTimeline'
import { QrPanel } from '../components/deposits/QrPanel'
import { ResolveUnknownDeposit } from '../components/deposits/ResolveUnknownDeposit'
import { depositError } from '../components/deposits/error-text'
import { prettyJson } from '../components/detail/raw'
import { Brl, DateTime } from '../components/format'
import { Alert } from '../components/ui/Alert'
import { PageHeader } from '../components/ui/PageHeader'
import { currentLanguage } from '../i18n'
import { call, useEvent } from '../ipc'
import { useRoute } from '../stores/route'

/** The QR is worth showing until the Pix is known paid, or the QR is known dead. */
function qrOpen(status: string): boolean {
  return status === 'created' || status === 'pending'
}

export function DepositDetailPage({ localId }: { localId: string }): React.JSX.Element {
  const { t } = useTranslation('deposits')
  const go = useRoute((s) => s.go)
  const [detail, setDetail] = useState<DepositDetail | null>(null)
  const [error, setError] = useState<IpcError | null>(null)
  const [busy, setBusy] = useState(false)

  const load = useCallback(async (): Promise<void> => {
    const r = await call('deposits:get', { localId })
    if (r.ok) {
      setDetail(r.data)
      setError(null)
    } else setError(depositError(r.error))
  }, [localId])

  useEffect(() => {
    const timer = setTimeout(() => void load())
    return () => clearTimeout(timer)
  }, [load])
  useEvent('deposit:changed', (r) => {
    if (r.localId === localId) void load()
  })

  const refresh = async (): Promise<void> => {
    setBusy(true)
    const r = await call('deposits:refresh', { localId })
    setBusy(false)
    if (r.ok) await load()
    else setError(depositError(r.error))
  }

  // The design system's page header, as on a payment's page: the title, "back" on its line.
  const header = (
    <PageHeader
      id="deposit-title"
      title={t('detail.title')}
      actions={
        <button type="button" className="btn" onClick={() => go({ page: 'deposits' })}>
          <span aria-hidden="true">← </span>
          {t('detail.back')}
        </button>
      }
    />
  )
  if (!detail) {
    return (
      <section className="page" aria-labelledby="deposit-title">
        {header}
        {error ? <ErrorNotice error={error} /> : <p>{t('detail.notFound')}</p>}
      </section>
    )
  }
  const r = detail.record
  const status = depositStatusOf(r)
  const paid = r.remoteStatus !== null && isPaidDepositStatus(r.remoteStatus)
  return (
    <section
      className="page"
      aria-labelledby="deposit-title"
      data-testid="deposit-detail"
      data-local-id={r.localId}
    >
      {header}
      <DepositAlerts record={r} />
      {detail.refusal && (
        <Alert tone="error" title={t('detail.refused')} testId="deposit-refusal">
          <p>{detail.refusal[currentLanguage()]}</p>
        </Alert>
      )}
      <section className="card">
        <dl className="facts">
          <dt>{t('detail.amount')}</dt>
          <dd data-testid="deposit-amount">
            <Brl cents={r.valueCents ?? r.amountCents} />
          </dd>
          <dt>{t('detail.status')}</dt>
          <dd>
            <DepositStatusBadge record={r} />
          </dd>
          <dt>{t('detail.createdAt')}</dt>
          <dd>
            <DateTime iso={r.createdAt} />
          </dd>
          <dt>{t('detail.origin')}</dt>
          <dd data-testid="deposit-origin" data-origin={r.origin}>
            {r.origin === 'imported' ? t('list.outside') : t('list.ours')}
          </dd>
          {r.depixAddress && (
            <>
              <dt>{t('detail.address')}</dt>
              <dd className="mono">{r.depixAddress}</dd>
            </>
          )}
          {r.payerName && (
            <>
              <dt>{t('detail.payer')}</dt>
              <dd>{r.payerName}</dd>
            </>
          )}
        </dl>
        <div className="actions">
          <button
            type="button"
            className="btn"
            disabled={busy || r.remoteId === null}
            onClick={() => void refresh()}
            data-testid="deposit-refresh"
          >
            {t('detail.refresh')}
          </button>
        </div>
        {error && <ErrorNotice error={error} />}
      </section>
      {r.localState === 'outcome_unknown' && (
        <ResolveUnknownDeposit record={r} onResolved={() => void load()} />
      )}
      {qrOpen(status) && !paid && (
        <section className="card" aria-labelledby="deposit-qr-heading">
          <h3 id="deposit-qr-heading">{t('detail.qrHeading')}</h3>
          <QrPanel record={r} qr={detail.qr} alert={detail.qrAlert} />
        </section>
      )}
      <DepositMoneyFacts record={r} />
      <section className="card" aria-labelledby="deposit-timeline-heading">
        <h3 id="deposit-timeline-heading">{t('detail.timeline')}</h3>
        <DepositTimeline observations={detail.observations} />
      </section>
      <details className="card" data-technical="">
        <summary>{t('detail.technical')}</summary>
        <dl>
          <dt>localId</dt>
          <dd className="mono">{r.localId}</dd>
          <dt>qrId</dt>
          <dd className="mono" data-testid="deposit-remote-id">
            {r.remoteId ?? '—'}
          </dd>
          <dt>localState / remoteStatus</dt>
          <dd className="mono">
            {r.localState} / {r.remoteStatus ?? '—'}
          </dd>
          {r.requestId && (
            <>
              <dt>X-Request-ID</dt>
              <dd className="mono">{r.requestId}</dd>
            </>
          )}
        </dl>
        {r.error && (
          <pre className="raw-json" data-testid="deposit-error-raw">
            {prettyJson(r.error)}
          </pre>
        )}
        {Object.keys(r.request).length > 0 && <pre className="raw-json">{prettyJson(r.request)}</pre>}
        {r.createResponse && <pre className="raw-json">{prettyJson(r.createResponse)}</pre>}
        {r.lastRemote && <pre className="raw-json">{prettyJson(r.lastRemote)}</pre>}
      </details>
    </section>
  )
}
