/**
 * "I have sent it": records when the operator sent the DePix (and, optionally, the Liquid txid) so the status
 * tracker looks sooner and the record shows who sent what. It moves no money.
 */
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { DateTime } from '../format'
import { txIdProblem } from './funding-model'

export function MarkFundedForm({
  record,
  onMarked,
}: {
  record: WithdrawalRecord
  onMarked: (r: WithdrawalRecord) => void
}): React.JSX.Element {
  const { t } = useTranslation('funding')
  const [txId, setTxId] = useState('')
  const [touched, setTouched] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const inFlight = useRef(false)
  const problem = txIdProblem(txId)
  const showProblem = problem !== null && touched

  const submit = async (): Promise<void> => {
    setTouched(true)
    if (problem || inFlight.current) return
    inFlight.current = true
    setBusy(true)
    setError(null)
    const trimmed = txId.trim()
    const r = await call('withdrawals:markFunded', {
      localId: record.localId,
      ...(trimmed ? { txId: trimmed } : {}),
    })
    inFlight.current = false
    setBusy(false)
    if (r.ok) onMarked(r.data)
    else setError(r.error)
  }

  if (record.fundedAt) {
    return (
      <p className="alert alert-ok" data-testid="marked-funded">
        {t('mark.done')} <DateTime iso={record.fundedAt} />
        {record.fundingTxId && (
          <>
            {' · '}
            {t('mark.txId')}: <code className="mono">{record.fundingTxId}</code>
          </>
        )}
      </p>
    )
  }

  return (
    <form
      className="card mark-funded"
      noValidate
      aria-labelledby="mark-heading"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <h3 id="mark-heading">{t('mark.heading')}</h3>
      <p className="field-hint">{t('mark.hint')}</p>
      <div className="field">
        <label htmlFor="fundingTxId">{t('mark.txIdLabel')}</label>
        <input
          id="fundingTxId"
          type="text"
          className="mono"
          autoComplete="off"
          spellCheck={false}
          value={txId}
          maxLength={128}
          onChange={(e) => setTxId(e.target.value)}
          onBlur={() => setTouched(true)}
          aria-invalid={showProblem ? true : undefined}
          aria-describedby={showProblem ? 'fundingTxId-error' : undefined}
        />
        {showProblem && (
          <p id="fundingTxId-error" className="field-error">
            {t('mark.txIdFormat')}
          </p>
        )}
      </div>
      {error && <ErrorNotice error={error} />}
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy || undefined}>
          {busy ? t('mark.saving') : t('mark.submit')}
        </button>
      </div>
    </form>
  )
}
