/**
 * The rows a run could not create (issue #25): a row refused for a passing cause, or whose unknown outcome was
 * resolved as never created, can be sent again (the next wave makes a new create); a row whose outcome is unknown is
 * resolved here as a single payment is — the withdrawal id support found, or "never created".
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import type { RunDetailView } from '../../../../shared/channels-runs'
import { call } from '../../ipc'
import { RunErrorNotice } from './run-error'

type Row = RunDetailView['rows'][number]

function UnknownRow({
  runId,
  row,
  onChange,
  onError,
}: {
  runId: string
  row: Row
  onChange: (d: RunDetailView) => void
  onError: (e: IpcError | null) => void
}): React.JSX.Element {
  const { t } = useTranslation('runs')
  const [id, setId] = useState('')
  const resolve = async (resolution: { withdrawalId: string } | { notCreated: true }): Promise<void> => {
    onError(null)
    const r = await call('runs:resolveRow', { runId, idx: row.idx, resolution })
    if (r.ok) onChange(r.data)
    else onError(r.error)
  }
  return (
    <li data-testid={`run-row-unknown-${row.line}`}>
      {t('actions.unknown', { line: row.line, payee: row.payee.name ?? row.draft.pixKey })}{' '}
      <label>
        {t('actions.withdrawalId')}{' '}
        <input value={id} onChange={(e) => setId(e.target.value)} maxLength={200} />
      </label>{' '}
      <button
        type="button"
        className="btn"
        disabled={id.trim() === ''}
        onClick={() => void resolve({ withdrawalId: id.trim() })}
      >
        {t('actions.link')}
      </button>{' '}
      <button type="button" className="btn" onClick={() => void resolve({ notCreated: true })}>
        {t('actions.notCreated')}
      </button>
    </li>
  )
}

export function RowActionsPanel({
  detail,
  onChange,
}: {
  detail: RunDetailView
  onChange: (d: RunDetailView) => void
}): React.JSX.Element | null {
  const { t } = useTranslation('runs')
  const [error, setError] = useState<IpcError | null>(null)
  const { run } = detail
  const retry = detail.rows.filter((r) => r.retry)
  const unknown = detail.rows.filter((r) => r.outcome === 'outcome_unknown' && r.state === 'submitted')
  if (retry.length === 0 && unknown.length === 0) return null
  const settled = run.state !== 'creating' && run.state !== 'cancelled' && run.state !== 'completed'
  const again = async (idx: number): Promise<void> => {
    setError(null)
    const r = await call('runs:retryRow', { runId: run.runId, idx })
    if (r.ok) onChange(r.data)
    else setError(r.error)
  }
  return (
    <section className="card" aria-labelledby="run-row-actions-heading">
      <h3 id="run-row-actions-heading">{t('actions.heading')}</h3>
      {!settled && <p>{t('actions.whileCreating')}</p>}
      <ul>
        {retry.map((r) => (
          <li key={r.idx} data-testid={`run-row-retry-${r.line}`}>
            {t('actions.retryable', { line: r.line, payee: r.payee.name ?? r.draft.pixKey })}{' '}
            <button type="button" className="btn" disabled={!settled} onClick={() => void again(r.idx)}>
              {t('actions.retry')}
            </button>
          </li>
        ))}
        {settled &&
          unknown.map((r) => (
            <UnknownRow key={r.idx} runId={run.runId} row={r} onChange={onChange} onError={setError} />
          ))}
      </ul>
      {error && <RunErrorNotice error={error} />}
    </section>
  )
}
