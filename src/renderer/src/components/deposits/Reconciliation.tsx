/**
 * Reconciliation with GET /deposits: the last sweep (on demand or scheduled), the deposits the service knows and
 * this ledger does not ("feitas fora do aplicativo"), each importable for tracking after main proves it with one
 * status read. Imported records stay marked as imported everywhere.
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Reconciliation } from '../../../../shared/channels-deposits'
import type { IpcError } from '../../../../shared/contract'
import { depositStatusInWords } from '../../../../shared/deposit-words'
import { normalizeDepositStatus } from '../../../../shared/deposit-status'
import { currentLanguage } from '../../i18n'
import { call, useEvent } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { formatDateTime } from '../format'
import { depositError } from './error-text'

export function ReconciliationPanel({ onImported }: { onImported: () => void }): React.JSX.Element {
  const { t } = useTranslation('deposits')
  const lang = currentLanguage()
  const [last, setLast] = useState<Reconciliation | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const [imported, setImported] = useState<ReadonlySet<string>>(new Set())

  useEffect(() => {
    void call('deposits:reconciliation').then((r) => r.ok && setLast(r.data))
  }, [])
  useEvent('deposits:reconciled', setLast)

  const run = async (): Promise<void> => {
    setBusy(true)
    setError(null)
    const r = await call('deposits:reconcile', { days: 7 })
    setBusy(false)
    if (r.ok) setLast(r.data)
    else setError(depositError(r.error))
  }

  const importOne = async (qrId: string): Promise<void> => {
    setBusy(true)
    setError(null)
    const r = await call('deposits:import', { qrId })
    setBusy(false)
    if (!r.ok) return setError(depositError(r.error))
    setImported((s) => new Set([...s, qrId]))
    onImported()
  }

  const outside = last?.outside.filter((o) => !imported.has(o.qrId)) ?? []
  return (
    <section className="card" aria-labelledby="reconcile-heading" data-testid="deposit-reconciliation">
      <h3 id="reconcile-heading">{t('reconcile.heading')}</h3>
      <p className="field-hint">{t('reconcile.intro')}</p>
      <p data-testid="reconcile-last">
        {last
          ? t('reconcile.last', { date: formatDateTime(last.checkedAt, lang), rows: last.rows })
          : t('reconcile.none')}
      </p>
      {last?.incomplete && <p className="alert alert-warn">{t('reconcile.incomplete')}</p>}
      <div className="actions">
        <button
          type="button"
          className="btn"
          disabled={busy}
          onClick={() => void run()}
          data-testid="reconcile-run"
        >
          {busy ? t('reconcile.running') : t('reconcile.run')}
        </button>
      </div>
      {last && outside.length === 0 && <p>{t('reconcile.allKnown')}</p>}
      {outside.length > 0 && (
        <>
          <h4>{t('reconcile.outsideHeading')}</h4>
          <ul data-testid="reconcile-outside">
            {outside.map((o) => (
              <li key={o.qrId} data-qr-id={o.qrId}>
                <code className="mono">{o.qrId}</code> —{' '}
                {depositStatusInWords(normalizeDepositStatus(o.status), lang)}{' '}
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={busy}
                  onClick={() => void importOne(o.qrId)}
                  data-testid="reconcile-import"
                >
                  {t('reconcile.import')}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {error && <ErrorNotice error={error} />}
    </section>
  )
}
