/**
 * Sandbox tools: play the other side of a withdrawal (the payer's wallet, the banking processor, the operator's
 * maintenance switch) against the embedded sandbox. Main refuses these channels on any other profile.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ChannelInput, IpcError } from '../../../shared/contract'
import { formatBRL } from '../../../shared/money'
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'
import { ErrorNotice } from '../components/ErrorNotice'
import { SandboxDepositTools } from '../components/deposits/SandboxDepositTools'
import { DateTime, formatDateTime } from '../components/format'
import { badgeModel, StatusBadge } from '../components/StatusBadge'
import { withAreaMessage } from '../components/withdrawal-form/error-text'
import { currentLanguage } from '../i18n'
import { call, useEvent } from '../ipc'
import { useApp } from '../stores/app'
import { useRoute } from '../stores/route'
import { PageHeader } from '../components/ui/PageHeader'

type FundMode = ChannelInput<'sandbox:fund'>['mode']
type Outcome = ChannelInput<'sandbox:settle'>['outcome']
type Action = { kind: 'fund'; mode: FundMode } | { kind: 'settle'; outcome: Outcome }

const FUND_MODES: readonly FundMode[] = ['exact', 'over_tolerance', 'under_tolerance']
const OUTCOMES: readonly Outcome[] = ['sent', 'invalid_pix_key', 'key_tax_mismatch', 'processor_failure']
const LIST_LIMIT = 50

/** One picker line; the status in words (an unknown one as sent, since an <option> cannot hold a badge). */
function optionText(
  r: WithdrawalRecord,
  lang: 'pt-BR' | 'en',
  statusWords: (r: WithdrawalRecord) => string,
): string {
  const cents = r.depositAmountCents ?? r.amountCents
  return `${formatDateTime(r.createdAt, lang)} · ${r.pixKey} · ${formatBRL(cents, lang)} · ${statusWords(r)}`
}

function WithdrawalPicker({
  selected,
  onSelect,
}: {
  selected: string
  onSelect: (localId: string, record: WithdrawalRecord | undefined) => void
}): React.JSX.Element {
  const { t } = useTranslation(['sandbox', 'status'])
  const lang = currentLanguage()
  const statusWords = (r: WithdrawalRecord): string => {
    const m = badgeModel(r.remoteStatus, r.localState, r.refund !== null)
    return m.label.kind === 'raw' ? m.label.text : t(`status:${m.label.kind}.${m.label.key}`)
  }
  const [onlyCreated, setOnlyCreated] = useState(true)
  const [rows, setRows] = useState<WithdrawalRecord[]>([])
  const [error, setError] = useState<IpcError | null>(null)
  const selectedRef = useRef(selected)
  useEffect(() => {
    selectedRef.current = selected
  }, [selected])

  const load = useCallback(async (): Promise<void> => {
    const r = await call('withdrawals:list', {
      ...(onlyCreated ? { statuses: ['created'] } : {}),
      limit: LIST_LIMIT,
      sort: { field: 'createdAt', dir: 'desc' },
    })
    if (!r.ok) return setError(r.error)
    setError(null)
    setRows(r.data.rows)
    const current = r.data.rows.find((x) => x.localId === selectedRef.current)
    if (current) onSelect(current.localId, current)
    else if (!selectedRef.current && r.data.rows[0]) onSelect(r.data.rows[0].localId, r.data.rows[0])
  }, [onlyCreated, onSelect])

  useEffect(() => {
    const timer = setTimeout(() => void load())
    return () => clearTimeout(timer)
  }, [load])
  useEvent('withdrawal:changed', () => void load())

  return (
    <div className="card">
      <div className="field">
        <label htmlFor="sandbox-withdrawal">{t('pick.label', { count: LIST_LIMIT })}</label>
        <select
          id="sandbox-withdrawal"
          value={selected}
          onChange={(e) =>
            onSelect(
              e.target.value,
              rows.find((x) => x.localId === e.target.value),
            )
          }
        >
          {rows.length === 0 && <option value="">{t('pick.none')}</option>}
          {rows.map((r) => (
            <option key={r.localId} value={r.localId}>
              {optionText(r, lang, statusWords)}
            </option>
          ))}
        </select>
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={onlyCreated} onChange={(e) => setOnlyCreated(e.target.checked)} />
        {t('pick.onlyCreated')}
      </label>
      {error && <ErrorNotice error={error} />}
    </div>
  )
}

export function SandboxToolsPage(): React.JSX.Element {
  const { t } = useTranslation('sandbox')
  const go = useRoute((s) => s.go)
  const info = useApp((s) => s.info)
  const [localId, setLocalId] = useState('')
  const [record, setRecord] = useState<WithdrawalRecord | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const [maintenance, setMaintenance] = useState<boolean | null>(null)
  const [lastAction, setLastAction] = useState<string | null>(null)

  const select = useCallback((id: string, r: WithdrawalRecord | undefined) => {
    setLocalId(id)
    setRecord(r ?? null)
  }, [])

  const run = async (action: Action): Promise<void> => {
    if (!localId || busy) return
    setBusy(true)
    setError(null)
    const r =
      action.kind === 'fund'
        ? await call('sandbox:fund', { localId, mode: action.mode })
        : await call('sandbox:settle', { localId, outcome: action.outcome })
    setBusy(false)
    setLastAction(action.kind === 'fund' ? `fund.${action.mode}` : `settle.${action.outcome}`)
    if (r.ok) setRecord(r.data)
    else setError(withAreaMessage(r.error, 'sandbox'))
  }

  const toggleMaintenance = async (on: boolean): Promise<void> => {
    setBusy(true)
    setError(null)
    const r = await call('sandbox:maintenance', { on })
    setBusy(false)
    setLastAction(on ? 'maintenance.on' : 'maintenance.off')
    if (r.ok) setMaintenance(r.data.on)
    else setError(withAreaMessage(r.error, 'sandbox'))
  }

  if (info && !info.sandbox) {
    return (
      <div className="page">
        <PageHeader title={t('title')} />
        <p className="alert alert-info">{t('notSandbox')}</p>
      </div>
    )
  }

  const disabled = busy || !localId
  return (
    <div className="page sandbox-tools">
      <PageHeader title={t('title')} lead={t('intro')} />
      <WithdrawalPicker selected={localId} onSelect={select} />

      <section className="card" aria-labelledby="sandbox-fund-heading">
        <h3 id="sandbox-fund-heading">{t('fund.heading')}</h3>
        <div className="actions">
          {FUND_MODES.map((mode) => (
            <button
              key={mode}
              type="button"
              className="btn"
              disabled={disabled}
              onClick={() => void run({ kind: 'fund', mode })}
            >
              {t(`fund.${mode}`)}
            </button>
          ))}
        </div>
      </section>

      <section className="card" aria-labelledby="sandbox-settle-heading">
        <h3 id="sandbox-settle-heading">{t('settle.heading')}</h3>
        <div className="actions">
          {OUTCOMES.map((outcome) => (
            <button
              key={outcome}
              type="button"
              className="btn"
              disabled={disabled}
              onClick={() => void run({ kind: 'settle', outcome })}
            >
              {t(`settle.${outcome}`)}
            </button>
          ))}
        </div>
      </section>

      <section className="card" aria-labelledby="sandbox-maintenance-heading">
        <h3 id="sandbox-maintenance-heading">{t('maintenance.heading')}</h3>
        <p data-testid="maintenance-state">
          {t(
            maintenance === null
              ? 'maintenance.unknown'
              : maintenance
                ? 'maintenance.isOn'
                : 'maintenance.isOff',
          )}
        </p>
        <div className="actions">
          <button type="button" className="btn" disabled={busy} onClick={() => void toggleMaintenance(true)}>
            {t('maintenance.on')}
          </button>
          <button type="button" className="btn" disabled={busy} onClick={() => void toggleMaintenance(false)}>
            {t('maintenance.off')}
          </button>
        </div>
      </section>

      <SandboxDepositTools />

      <section className="card" aria-labelledby="sandbox-result-heading" aria-live="polite">
        <h3 id="sandbox-result-heading">{t('result.heading')}</h3>
        {/* Kept as a key so it follows a language change. */}
        {lastAction && <p>{t('result.last', { action: t(lastAction) })}</p>}
        {error && <ErrorNotice error={error} />}
        {record ? (
          <dl data-testid="sandbox-record">
            <dt>{t('result.status')}</dt>
            <dd data-testid="sandbox-status" data-status={record.remoteStatus ?? record.localState}>
              <StatusBadge
                status={record.remoteStatus}
                localState={record.localState}
                hasRefund={record.refund !== null}
              />{' '}
              <code className="mono">{record.remoteStatus ?? record.localState}</code>
            </dd>
            <dt>{t('result.updatedAt')}</dt>
            <dd>
              <DateTime iso={record.updatedAt} />
            </dd>
            <dt>{t('result.amounts')}</dt>
            <dd className="num">
              {formatBRL(record.depositAmountCents ?? record.amountCents, currentLanguage())} →{' '}
              {record.payoutAmountCents === null
                ? '—'
                : formatBRL(record.payoutAmountCents, currentLanguage())}
            </dd>
          </dl>
        ) : (
          <p>{t('result.none')}</p>
        )}
        {record && (
          <div className="actions">
            <button
              type="button"
              className="btn"
              onClick={() => go({ page: 'funding', localId: record.localId })}
            >
              {t('result.openFunding')}
            </button>
            <button
              type="button"
              className="btn"
              onClick={() => go({ page: 'detail', localId: record.localId })}
            >
              {t('result.openDetail')}
            </button>
          </div>
        )}
      </section>
    </div>
  )
}
