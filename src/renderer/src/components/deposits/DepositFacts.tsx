/**
 * What the last status answer says about the money, in words: DePix held until a date, the reasons the service
 * gave (each known code in words, an unknown one as sent), the Liquid txid with its explorer link, the MED alert
 * with principal and date, and the other alerts of the record.
 */
import { useTranslation } from 'react-i18next'
import type { DepositRecord } from '../../../../shared/deposit-record'
import { rejectionReasonInWords } from '../../../../shared/deposit-words'
import { formatBRL } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { useApp } from '../../stores/app'
import { CopyButton } from '../CopyButton'
import { ExternalButton } from '../detail/ExternalButton'
import { explorerTxUrl } from '../detail/raw'
import { formatDateTime } from '../format'

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

export function DepositAlerts({ record }: { record: DepositRecord }): React.JSX.Element | null {
  const { t } = useTranslation('deposits')
  const lang = currentLanguage()
  const alerts: React.JSX.Element[] = []
  if (record.flags.includes('med_reversal')) {
    alerts.push(
      <p key="med" className="alert alert-error" role="alert" data-testid="deposit-med-alert">
        {t('detail.med', {
          date: formatDateTime(record.reversedAt ?? record.updatedAt, lang),
          amount: formatBRL(record.valueCents ?? record.amountCents, lang),
        })}
      </p>,
    )
  }
  if (record.flags.includes('remote_not_found'))
    alerts.push(
      <p key="nf" className="alert alert-warn" role="alert">
        {t('detail.notFoundRemote')}
      </p>,
    )
  if (record.flags.includes('value_mismatch'))
    alerts.push(
      <p key="vm" className="alert alert-warn" role="alert">
        {t('detail.valueMismatch')}
      </p>,
    )
  return alerts.length > 0 ? <>{alerts}</> : null
}

export function DepositMoneyFacts({ record }: { record: DepositRecord }): React.JSX.Element | null {
  const { t } = useTranslation('deposits')
  const lang = currentLanguage()
  const network = useApp((s) => s.info?.network)
  const last = record.lastRemote ?? {}
  const delayUntil = str(last['delayUntil'])
  const reasonsRaw = last['rejectionReasons']
  const reasons = Array.isArray(reasonsRaw)
    ? reasonsRaw.map((r) => rejectionReasonInWords(typeof r === 'string' ? r : JSON.stringify(r), lang))
    : []
  const txid = record.blockchainTxId
  const url = txid ? explorerTxUrl(txid, network) : null
  if (!delayUntil && reasons.length === 0 && !txid && !record.bankTxId) return null
  return (
    <section className="card" data-testid="deposit-money-facts">
      {delayUntil && (
        <p data-testid="deposit-delay-until">
          {t('detail.delayUntil', { date: formatDateTime(delayUntil, lang) })}
        </p>
      )}
      {reasons.length > 0 && (
        <p data-testid="deposit-reasons">{t('detail.reasons', { reasons: reasons.join('; ') })}</p>
      )}
      <dl>
        {txid && (
          <>
            <dt>{t('detail.txid')}</dt>
            <dd>
              <code className="mono" data-testid="deposit-txid">
                {txid}
              </code>{' '}
              <CopyButton text={txid} /> {url && <ExternalButton url={url} label={t('detail.explorer')} />}
            </dd>
          </>
        )}
        {record.bankTxId && (
          <>
            <dt>{t('detail.bankTx')}</dt>
            <dd>
              <code className="mono">{record.bankTxId}</code>
            </dd>
          </>
        )}
      </dl>
    </section>
  )
}
