/**
 * The deposit's Pix QR as main read it: the picture only when the payload is a BR Code whose CRC holds and whose
 * amount is the deposit's; the "copia e cola" text always (selectable, copyable), with the QR's expiry countdown.
 * A damaged or mismatching QR is said in words so nobody pays it.
 */
import { useTranslation } from 'react-i18next'
import type { DepositQr } from '../../../../shared/channels-deposits'
import type { DepositRecord } from '../../../../shared/deposit-record'
import type { FundingAlert } from '../../../../shared/funding-alert'
import { formatBRL } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { CopyButton } from '../CopyButton'
import { ExpirationCountdown } from '../funding/Countdown'

/** The SVG comes from main (our own qrcode render of a checked payload); shown as an image, never as markup. */
function svgSrc(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
}

export function QrPanel({
  record,
  qr,
  alert,
}: {
  record: DepositRecord
  qr: DepositQr | null
  alert: FundingAlert | null
}): React.JSX.Element {
  const { t } = useTranslation('deposits')
  const lang = currentLanguage()
  // Main confirmed nothing (issue #24): it sent no payload, and the page says why in red.
  if (alert) {
    return (
      <div className="alert alert-error" role="alert" data-testid="deposit-qr-alert" data-alert={alert.kind}>
        <p className="alert-title">{t('detail.qrMismatchTitle')}</p>
        <p>
          {alert.kind === 'mismatch'
            ? t('detail.qrMismatch', {
                fields: alert.fields.map((f) => t(`detail.alertFields.${f}`)).join(', '),
              })
            : t('detail.qrUnconfirmed')}
        </p>
      </div>
    )
  }
  if (!qr) return <p data-testid="deposit-no-qr">{t('detail.noQr')}</p>
  const usable = qr.crcValid && qr.amountMatches
  return (
    <div className="qr-panel" data-testid="deposit-qr">
      {!qr.crcValid && (
        <p className="alert alert-error" role="alert">
          {t('detail.qrDamaged')}
        </p>
      )}
      {qr.crcValid && !qr.amountMatches && qr.amountCents !== null && (
        <p className="alert alert-error" role="alert">
          {t('detail.qrAmountMismatch', {
            qr: formatBRL(qr.amountCents, lang),
            ours: formatBRL(record.amountCents, lang),
          })}
        </p>
      )}
      {usable && qr.svg && (
        <img
          className="qr-image"
          src={svgSrc(qr.svg)}
          alt={t('detail.qrAlt')}
          width={240}
          height={240}
          data-testid="deposit-qr-image"
        />
      )}
      {usable && (
        <div className="field">
          <label htmlFor="deposit-copy-paste">{t('detail.copyPaste')}</label>
          <textarea
            id="deposit-copy-paste"
            className="mono"
            readOnly
            rows={3}
            value={qr.payload}
            data-testid="deposit-copy-paste"
          />
          <CopyButton text={qr.payload} label={t('detail.copy')} />
        </div>
      )}
      <p>
        {t('detail.expires')}: <ExpirationCountdown expiration={record.expiration} />
      </p>
    </div>
  )
}
