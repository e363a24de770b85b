/**
 * The funding sheet of the wave awaiting its deposit: every deposit address with its exact DePix amount, the
 * wave's total and earliest deadline, a `liquidnetwork:` URI and QR per row, the wallet files, and "wave funded".
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { FundingSheetView, RunDetailView } from '../../../../shared/channels-runs'
import type { IpcError } from '../../../../shared/contract'
import { formatBRL } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { call } from '../../ipc'
import { useApp } from '../../stores/app'
import { Countdown } from '../ui/Countdown'
import { TruncatedText } from '../ui/DataTable'
import { CopyButton } from '../CopyButton'
import { SafeText } from '../SafeText'
import { DateTime, DePix } from '../format'
import { RunErrorNotice } from './run-error'

function Qr({ svg }: { svg: string }): React.JSX.Element {
  const [open, setOpen] = useState(false)
  const { t } = useTranslation('runs')
  if (!open) {
    return (
      <button type="button" className="btn-link" onClick={() => setOpen(true)}>
        {t('sheet.showQr')}
      </button>
    )
  }
  // The SVG is main's own output (qrcode's renderer), from a URI main built around a checked address.
  return <img alt="" width={160} height={160} src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`} />
}

export function SheetPanel({
  detail,
  onChange,
}: {
  detail: RunDetailView
  onChange: (d: RunDetailView) => void
}): React.JSX.Element | null {
  const { t } = useTranslation('runs')
  const lang = currentLanguage()
  const sandbox = useApp((s) => s.info?.sandbox ?? false)
  const { run } = detail
  const wave = run.wave
  const [sheet, setSheet] = useState<FundingSheetView | null>(null)
  const [error, setError] = useState<IpcError | null>(null)
  const [txId, setTxId] = useState('')
  const [saved, setSaved] = useState<string | null>(null)
  const show = run.state === 'awaiting_funding' && wave > 0

  useEffect(() => {
    if (!show) return
    let live = true
    void call('runs:sheet', { runId: run.runId, wave }).then((r) => {
      if (!live) return
      if (r.ok) setSheet(r.data)
      else setError(r.error)
    })
    return () => {
      live = false
    }
  }, [show, run.runId, wave])

  if (!show) return null

  const save = async (): Promise<void> => {
    const folder = await call('dialog:chooseFolder', { purpose: 'export' })
    if (!folder.ok) return setError(folder.error)
    if (folder.data === null) return
    const r = await call('runs:saveSheet', { runId: run.runId, wave, folder: folder.data.token })
    if (r.ok) setSaved(r.data.files.join(', '))
    else setError(r.error)
  }
  const funded = async (channel: 'runs:markWaveFunded' | 'runs:sandboxFundWave'): Promise<void> => {
    setError(null)
    const r =
      channel === 'runs:markWaveFunded'
        ? await call(channel, { runId: run.runId, wave, ...(txId.trim() ? { txId: txId.trim() } : {}) })
        : await call(channel, { runId: run.runId, wave })
    if (r.ok) onChange(r.data)
    else setError(r.error)
  }

  return (
    <section className="card" aria-labelledby="run-sheet-heading" data-testid="funding-sheet">
      <h3 id="run-sheet-heading">{t('sheet.heading', { n: wave })}</h3>
      {sheet && (
        <>
          <dl className="facts">
            <dt>{t('sheet.total')}</dt>
            <dd data-testid="sheet-total">
              <DePix cents={sheet.totalCents} /> <CopyButton text={sheet.totalDepix} />{' '}
              <span className="cell-note">
                {t('sheet.equivalent', { brl: formatBRL(sheet.totalCents, lang) })}
              </span>
            </dd>
            <dt>{t('sheet.earliest')}</dt>
            <dd data-testid="sheet-deadline">
              <DateTime iso={sheet.earliestDeadline} />{' '}
              <Countdown deadline={sheet.earliestDeadline} testId="sheet-countdown" />
            </dd>
          </dl>
          {sheet.filesProblem === 'funding_unconfirmed' ? (
            <div className="alert alert-error" role="alert" data-testid="sheet-unconfirmed">
              <p className="alert-title">{t('sheet.unconfirmedTitle')}</p>
              <p>
                {t('sheet.unconfirmed', {
                  lines: sheet.problems
                    .filter((p) => p.problem === 'funding_mismatch' || p.problem === 'funding_unconfirmed')
                    .map((p) => p.line)
                    .join(', '),
                })}
              </p>
            </div>
          ) : (
            sheet.problems.length > 0 && (
              <p className="alert alert-warn">{t('sheet.problems', { count: sheet.problems.length })}</p>
            )
          )}
          <p>{t('sheet.filesNote')}</p>
          {sheet.filesProblem === 'funding_unconfirmed' ? null : sheet.filesProblem === 'repeated_address' ? (
            <p className="alert alert-warn">{t('sheet.repeated')}</p>
          ) : (
            <p>
              <button type="button" className="btn" onClick={() => void save()}>
                {t('sheet.save')}
              </button>{' '}
              {saved && <span role="status">{t('sheet.saved', { files: saved })}</span>}
            </p>
          )}
          <table className="data data-grid" data-testid="sheet-lines">
            <thead>
              <tr>
                <th scope="col">{t('sheet.payee')}</th>
                <th scope="col">{t('sheet.address')}</th>
                <th scope="col">{t('sheet.amount')}</th>
                <th scope="col">{t('sheet.qr')}</th>
              </tr>
            </thead>
            <tbody>
              {sheet.lines.map((l) => (
                <tr key={l.localId}>
                  <td>
                    <SafeText text={l.payee ?? l.pixKey} />
                  </td>
                  <td>
                    {/* One line, cut in the middle of the screen; the whole address on hover/focus and copied. */}
                    <TruncatedText text={l.address}>
                      <code className="mono">{l.address}</code>
                    </TruncatedText>{' '}
                    <CopyButton text={l.address} />
                  </td>
                  <td>
                    <DePix cents={l.cents} /> <CopyButton text={l.depixAmount} />
                  </td>
                  <td>
                    <Qr svg={l.qrSvg} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <p>
        <label className="field-inline">
          {t('sheet.txId')} <input value={txId} maxLength={128} onChange={(e) => setTxId(e.target.value)} />
        </label>{' '}
        <button type="button" className="btn btn-primary" onClick={() => void funded('runs:markWaveFunded')}>
          {t('sheet.funded')}
        </button>{' '}
        {sandbox && (
          <button type="button" className="btn" onClick={() => void funded('runs:sandboxFundWave')}>
            {t('sheet.sandboxFund')}
          </button>
        )}
      </p>
      {error && <RunErrorNotice error={error} />}
    </section>
  )
}
