/**
 * Resolving a top-up whose create answer never came: nothing is resent. The operator links the id (qrId) the
 * service shows, which main proves with one GET /deposit-status before storing, or declares it not created. Two
 * steps (choose, then confirm); main writes the decision to the audit trail.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import type { DepositRecord } from '../../../../shared/deposit-record'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { depositError } from './error-text'

type Choice = { depositId: string } | { notCreated: true }

export function ResolveUnknownDeposit({
  record,
  onResolved,
}: {
  record: DepositRecord
  onResolved: (r: DepositRecord) => void
}): React.JSX.Element {
  const { t } = useTranslation('deposits')
  const [id, setId] = useState('')
  const [pending, setPending] = useState<Choice | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)

  const resolve = async (resolution: Choice): Promise<void> => {
    setBusy(true)
    setError(null)
    const r = await call('deposits:resolveUnknown', { localId: record.localId, resolution })
    setBusy(false)
    setPending(null)
    if (r.ok) onResolved(r.data)
    else setError(depositError(r.error))
  }

  return (
    <section className="card alert-warn" data-testid="deposit-resolve">
      <h3>{t('detail.unknownHeading')}</h3>
      <p>{t('detail.unknownText')}</p>
      <div className="field">
        <label htmlFor="deposit-resolve-id">{t('detail.unknownId')}</label>
        <input
          id="deposit-resolve-id"
          type="text"
          className="mono"
          value={id}
          maxLength={200}
          onChange={(e) => setId(e.target.value)}
        />
      </div>
      {pending === null ? (
        <div className="actions">
          <button
            type="button"
            className="btn"
            disabled={busy || id.trim() === ''}
            onClick={() => setPending({ depositId: id.trim() })}
          >
            {t('detail.unknownResolve')}
          </button>
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={() => setPending({ notCreated: true })}
          >
            {t('detail.unknownNotCreated')}
          </button>
        </div>
      ) : (
        <div className="actions" role="group">
          <strong>
            {'depositId' in pending
              ? `${t('detail.unknownResolve')}: ${pending.depositId}`
              : t('detail.unknownNotCreated')}
          </strong>
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy}
            onClick={() => void resolve(pending)}
          >
            {t('detail.confirm')}
          </button>
          <button type="button" className="btn" disabled={busy} onClick={() => setPending(null)}>
            {t('detail.cancel')}
          </button>
        </div>
      )}
      {error && <ErrorNotice error={error} />}
    </section>
  )
}
