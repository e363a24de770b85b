/**
 * Exports the active profile's top-ups through the one exporter (records:export with the deposit kind): CSV, JSON
 * and the HTML report, with the signed manifest the offline verifier checks. The folder comes from main's dialog.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import { call, useEvent } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { depositError } from './error-text'

export function DepositExport(): React.JSX.Element {
  const { t } = useTranslation('deposits')
  const [busy, setBusy] = useState(false)
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null)
  const [result, setResult] = useState<{ manifestPath: string; rowCount: number } | null>(null)
  const [error, setError] = useState<IpcError | null>(null)
  useEvent('export:progress', (p) => busy && setProgress(p))

  const run = async (): Promise<void> => {
    setError(null)
    setResult(null)
    const folder = await call('dialog:chooseFolder', { purpose: 'export' })
    if (!folder.ok) return setError(depositError(folder.error))
    if (folder.data === null) return
    setBusy(true)
    const r = await call('records:export', {
      folder: folder.data.token,
      formats: ['csv', 'json', 'html'],
      recordKind: 'deposit',
    })
    setBusy(false)
    setProgress(null)
    if (r.ok) setResult({ manifestPath: r.data.manifestPath, rowCount: r.data.rowCount })
    else setError(depositError(r.error))
  }

  return (
    <section className="card" aria-labelledby="deposit-export-heading">
      <h3 id="deposit-export-heading">{t('export.heading')}</h3>
      <p className="field-hint">{t('export.intro')}</p>
      <button
        type="button"
        className="btn"
        disabled={busy}
        onClick={() => void run()}
        data-testid="deposit-export"
      >
        {busy ? t('export.running') : t('export.run')}
      </button>
      {progress && <p className="num">{t('export.progress', progress)}</p>}
      {result && (
        <p className="alert alert-ok" role="status" data-testid="deposit-export-done">
          {t('export.done', { count: result.rowCount, path: result.manifestPath })}
        </p>
      )}
      {error && <ErrorNotice error={error} />}
    </section>
  )
}
