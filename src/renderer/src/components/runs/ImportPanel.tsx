/**
 * Import: the template (saved into a folder main's dialog chose), a file input whose bytes go to main as base64
 * (main decides CSV or XLSX by content and checks everything), and every problem found with line, column and
 * reason. Good lines become a run at once; the bad ones are listed here.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ChannelOutput, IpcError } from '../../../../shared/contract'
import { currentLanguage } from '../../i18n'
import { call } from '../../ipc'
import { FilePicker } from '../ui/FilePicker'
import { RunErrorNotice } from './run-error'
import { SafeText } from '../SafeText'

type ImportResult = ChannelOutput<'runs:import'>

function toBase64(buf: ArrayBuffer): string {
  const bytes = new Uint8Array(buf)
  let s = ''
  // Chunks: String.fromCharCode with 10 MB of arguments would overflow the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(s)
}

export function ImportPanel({
  onImported,
}: {
  /** `issues`: how many of the file's lines were refused (listed here). */
  onImported: (runId: string, issues: number) => void
}): React.JSX.Element {
  const { t } = useTranslation('runs')
  const lang = currentLanguage()
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<ImportResult | null>(null)
  const [error, setError] = useState<IpcError | null>(null)
  const [saved, setSaved] = useState<string | null>(null)

  const saveTemplate = async (): Promise<void> => {
    setError(null)
    const folder = await call('dialog:chooseFolder', { purpose: 'export' })
    if (!folder.ok) return setError(folder.error)
    if (folder.data === null) return
    const r = await call('runs:saveTemplate', { folder: folder.data.token })
    if (r.ok) setSaved(r.data.files.join(', '))
    else setError(r.error)
  }

  const pick = async (file: File | undefined): Promise<void> => {
    if (!file) return
    setBusy(true)
    setError(null)
    setResult(null)
    try {
      const r = await call('runs:import', {
        name: file.name,
        contentBase64: toBase64(await file.arrayBuffer()),
      })
      if (!r.ok) return setError(r.error)
      setResult(r.data)
      if (r.data.runId) onImported(r.data.runId, r.data.issues.length)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="card" aria-labelledby="run-import-heading">
      <h3 id="run-import-heading">{t('import.heading')}</h3>
      <p>
        <button type="button" className="btn" onClick={() => void saveTemplate()}>
          {t('template.save')}
        </button>{' '}
        {saved && <span role="status">{t('template.saved', { files: saved })}</span>}
      </p>
      <FilePicker
        label={t('import.file')}
        accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        testId="run-file"
        disabled={busy}
        onPick={(file) => void pick(file)}
      />
      {busy && <p role="status">{t('import.reading')}</p>}
      {error && <RunErrorNotice error={error} />}
      {result && (
        <div data-testid="import-result">
          <p role="status">
            {result.rows > 0
              ? t('import.result', { rows: result.rows, lines: result.lines })
              : t('import.none')}
          </p>
          {result.issues.length > 0 && (
            <>
              <h4>{t('import.issuesHeading', { count: result.issues.length })}</h4>
              <table className="data data-grid" data-testid="import-issues">
                <thead>
                  <tr>
                    <th scope="col">{t('import.line')}</th>
                    <th scope="col">{t('import.column')}</th>
                    <th scope="col">{t('import.reason')}</th>
                  </tr>
                </thead>
                <tbody>
                  {result.issues.map((i, n) => (
                    <tr key={n} data-line={i.line}>
                      <td className="num">{i.line === 0 ? t('import.wholeFile') : i.line}</td>
                      <td>{i.column ? <SafeText text={i.column} /> : '—'}</td>
                      <td>{i.message[lang]}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
        </div>
      )}
    </section>
  )
}
