/**
 * "Pagar a onda com a carteira" (issue #28): one transaction for the given payments, built in main from the
 * service's fresh answers, reviewed here line by line, carried to the signer as a PSET and back, then broadcast.
 * Every check (same transaction, same outputs) is main's; this panel only shows and carries.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { PayAttemptDto, PayReviewDto } from '../../../../shared/channels-wallet-pay'
import type { EventPayload, IpcError } from '../../../../shared/contract'
import { formatAssetUnits } from '../../../../shared/money'
import { call, useEvent } from '../../ipc'
import { useApp } from '../../stores/app'
import { CopyButton } from '../CopyButton'
import { ErrorNotice } from '../ErrorNotice'
import { Brl, DateTime } from '../format'
import { JadeSignButton } from './JadeSignButton'
import type { JadeSignRequest } from './jade/jade-sign'

/**
 * About how long LWK takes to build and blind one output once every payment was checked with the service
 * (docs/BENCHMARKS.md: ~53 ms of CPU per blinded output on the reference machine): only to tell the operator what
 * to expect while waiting, never a limit.
 */
const BUILD_MS_PER_PAYMENT = 60
const BUILD_MS_FIXED = 1_000

/** The SVG comes from main (its own qrcode render of the PSET); shown as an image, never as markup. */
function svgSrc(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
}

type Qr = { fits: true; svg: string; chars: number } | { fits: false; chars: number; maxChars: number }

export function WalletPayPanel({
  localIds,
  onRecorded,
}: {
  localIds: readonly string[]
  /** called once the transaction is broadcast and its txid recorded on every payment it funds */
  onRecorded?: (attempt: PayAttemptDto) => void
}): React.JSX.Element {
  const { t, i18n } = useTranslation('walletPay')
  const lang = i18n.language === 'en' ? 'en' : 'pt-BR'
  const sandbox = useApp((s) => s.info?.sandbox ?? false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const [review, setReview] = useState<PayReviewDto | null>(null)
  const [attempt, setAttempt] = useState<PayAttemptDto | null>(null)
  const [pset, setPset] = useState('')
  const [exported, setExported] = useState<JadeSignRequest | null>(null)
  const [signedText, setSignedText] = useState('')
  const [missing, setMissing] = useState(0)
  const [savedFile, setSavedFile] = useState(false)
  const [qr, setQr] = useState<Qr | null>(null)
  const [progress, setProgress] = useState<EventPayload<'walletPay:progress'> | null>(null)
  useEvent('walletPay:progress', setProgress)

  const run = async <T,>(
    work: () => Promise<{ ok: true; data: T } | { ok: false; error: IpcError }>,
    done: (d: T) => void,
  ): Promise<void> => {
    setBusy(true)
    setError(null)
    try {
      const r = await work()
      if (r.ok) done(r.data)
      else setError(r.error)
    } finally {
      setBusy(false)
    }
  }
  const exportPset = (id: string): Promise<void> =>
    run(
      () => call('walletPay:export', { id }),
      (d) => {
        setPset(d.pset)
        setExported(d)
      },
    )
  const build = (): Promise<void> => {
    setProgress(null)
    return run(
      () => call('walletPay:build', { selected: localIds.map((localId) => ({ localId })) }),
      (d) => {
        setReview(d)
        setAttempt(d.attempt)
        void exportPset(d.attempt.id)
      },
    )
  }
  const signedBack = (d: { attempt: PayAttemptDto; missing: number }): void => {
    setAttempt(d.attempt)
    setMissing(d.missing)
    setSignedText('')
    setSavedFile(false)
    setQr(null)
    if (d.attempt.state === 'built') void exportPset(d.attempt.id)
  }

  const units = (u: string, ticker: string): string => formatAssetUnits(u, ticker, lang)

  return (
    <section className="card" aria-labelledby="wallet-pay-heading" data-testid="wallet-pay">
      <h3 id="wallet-pay-heading">{t('payWave')}</h3>
      {localIds.length === 0 && <p className="muted">{t('nothingToPay')}</p>}
      {attempt === null && localIds.length > 0 && (
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy}
          onClick={() => void build()}
          data-testid="wallet-pay-build"
        >
          {busy ? t('building') : t('payWave')}
        </button>
      )}
      {attempt === null && busy && progress !== null && (
        <p className="muted" role="status" data-testid="wallet-pay-building" data-phase={progress.phase}>
          {progress.phase === 'status'
            ? t('progressStatus', { done: progress.done, n: progress.total })
            : t('buildingLong', {
                n: progress.total,
                seconds: Math.ceil((BUILD_MS_FIXED + BUILD_MS_PER_PAYMENT * progress.total) / 1000),
              })}
        </p>
      )}
      {review && attempt && (
        <>
          <h4>{t('reviewHeading')}</h4>
          <table className="data-grid" data-testid="wallet-pay-review">
            <thead>
              <tr>
                <th>{t('colPayee')}</th>
                <th>{t('colAmount')}</th>
                <th>{t('colDepix')}</th>
                <th>{t('colAddress')}</th>
                <th>{t('colDeadline')}</th>
              </tr>
            </thead>
            <tbody>
              {attempt.lines.map((l) => (
                <tr key={l.localId} data-local-id={l.localId}>
                  <td>{l.payee ?? '—'}</td>
                  <td>
                    <Brl cents={l.cents} />
                  </td>
                  <td className="num">{units(l.depixUnits, 'DePix')}</td>
                  <td className="mono">{l.address}</td>
                  <td>
                    <DateTime iso={l.expiration} short />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p data-testid="wallet-pay-total">{t('total', { amount: units(attempt.totalUnits, 'DePix') })}</p>
          <p>{t('fee', { fee: units(attempt.feeUnits, 'L-BTC') })}</p>
          <p>
            {t('after', {
              depix: units(review.depixAfterUnits, 'DePix'),
              lbtc: units(review.lbtcAfterUnits, 'L-BTC'),
            })}
          </p>
        </>
      )}
      {attempt?.state === 'built' && (
        <div>
          <h4>{t('exportHeading')}</h4>
          <p className="muted">{t('exportHelp')}</p>
          <p className="muted">{t('jade.help')}</p>
          {pset !== '' && (
            <>
              <textarea readOnly rows={3} value={pset} data-testid="wallet-pay-pset" aria-label="PSET" />
              <CopyButton text={pset} label={t('copy')} />{' '}
              <button
                type="button"
                className="btn"
                disabled={busy}
                data-testid="wallet-pay-save"
                onClick={() =>
                  void run(
                    () => call('walletPay:savePset', { id: attempt.id }),
                    (d) => setSavedFile(d.saved),
                  )
                }
              >
                {t('saveFile')}
              </button>{' '}
              <button
                type="button"
                className="btn"
                disabled={busy}
                data-testid="wallet-pay-show-qr"
                onClick={() => void run(() => call('walletPay:qr', { id: attempt.id }), setQr)}
              >
                {t('showQr')}
              </button>
              {savedFile && (
                <p role="status" data-testid="wallet-pay-saved">
                  {t('saved')}
                </p>
              )}
              {qr?.fits === true && (
                <img
                  className="qr-image"
                  src={svgSrc(qr.svg)}
                  alt={t('qrAlt')}
                  width={320}
                  height={320}
                  data-testid="wallet-pay-qr"
                />
              )}
              {qr?.fits === false && (
                <p role="status" data-testid="wallet-pay-qr-too-large">
                  {t('qrTooLarge', {
                    chars: new Intl.NumberFormat(lang).format(qr.chars),
                    max: new Intl.NumberFormat(lang).format(qr.maxChars),
                  })}
                </p>
              )}
            </>
          )}
          {missing > 0 && <p>{t('missing', { n: missing })}</p>}
          <label>
            {t('importLabel')}
            <textarea
              rows={3}
              value={signedText}
              onChange={(e) => setSignedText(e.target.value)}
              data-testid="wallet-pay-signed"
            />
          </label>
          <button
            type="button"
            className="btn"
            disabled={busy || signedText.trim() === ''}
            onClick={() =>
              void run(() => call('walletPay:import', { id: attempt.id, pset: signedText }), signedBack)
            }
          >
            {t('import')}
          </button>{' '}
          <button
            type="button"
            className="btn"
            disabled={busy}
            data-testid="wallet-pay-load-file"
            onClick={() =>
              void run(
                () => call('walletPay:loadSigned', { id: attempt.id }),
                (d) => {
                  if (d !== null) signedBack(d)
                },
              )
            }
          >
            {t('loadFile')}
          </button>{' '}
          {exported !== null && (
            <JadeSignButton
              request={exported}
              disabled={busy}
              onSigned={(signed) =>
                run(() => call('walletPay:import', { id: attempt.id, pset: signed }), signedBack)
              }
            />
          )}{' '}
          {sandbox && (
            <button
              type="button"
              className="btn"
              disabled={busy}
              onClick={() => void run(() => call('walletPay:signSandbox', { id: attempt.id }), signedBack)}
            >
              {t('signSandbox')}
            </button>
          )}
        </div>
      )}
      {attempt?.state === 'signed' && (
        <p>
          {t('signed')}{' '}
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy}
            data-testid="wallet-pay-broadcast"
            onClick={() =>
              void run(
                () => call('walletPay:broadcast', { id: attempt.id }),
                (a) => {
                  setAttempt(a)
                  if (a.state === 'recorded') onRecorded?.(a)
                },
              )
            }
          >
            {t('broadcast')}
          </button>
        </p>
      )}
      {attempt?.state === 'recorded' && (
        <p data-testid="wallet-pay-recorded">{t('recorded', { txid: attempt.txid })}</p>
      )}
      {attempt?.state === 'cancelled' && <p>{t('cancelled')}</p>}
      {(attempt?.state === 'built' || attempt?.state === 'signed') && (
        <button
          type="button"
          className="btn btn-danger"
          disabled={busy}
          onClick={() => void run(() => call('walletPay:cancel', { id: attempt.id }), setAttempt)}
        >
          {t('cancel')}
        </button>
      )}
      {error && <ErrorNotice error={error} />}
    </section>
  )
}
