/**
 * Funding seen, not declared (issue #27): when the treasury wallet's transaction paid this payment's deposit (main
 * recorded it funded with that txid after a scan), the funding page says so with the txid and its explorer page,
 * instead of asking "Já enviou?". Funding from anywhere else keeps the manual mark (`otherwise`).
 */
import { useTranslation } from 'react-i18next'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { CopyButton } from '../CopyButton'
import { ExternalButton } from '../detail/ExternalButton'
import { DateTime } from '../format'
import { useWalletView } from './wallet-view'

export function FundingSeen({
  record,
  otherwise,
}: {
  record: WithdrawalRecord
  otherwise: React.ReactNode
}): React.JSX.Element {
  const { t } = useTranslation('wallet')
  const { view } = useWalletView(false)
  const txid = record.fundingTxId
  const movement =
    view?.state === 'ready' && txid !== null && record.fundedAt !== null
      ? view.movements.find((m) => m.txid === txid && m.meaning === 'payment' && m.localId === record.localId)
      : undefined
  if (!movement || txid === null || record.fundedAt === null) return <>{otherwise}</>
  const url = view?.state === 'ready' && view.explorerTxUrl ? view.explorerTxUrl + txid : null
  return (
    <div className="alert alert-ok" data-testid="funding-seen">
      <p className="alert-title">{t('seen.title')}</p>
      <p>
        {movement.height === null ? t('seen.pending') : t('seen.confirmed')}{' '}
        <DateTime iso={record.fundedAt} />
      </p>
      <p>
        {t('seen.tx')}:{' '}
        <code className="mono" data-testid="funding-seen-txid">
          {txid}
        </code>{' '}
        <CopyButton text={txid} /> {url && <ExternalButton url={url} label={t('seen.explorer')} />}
      </p>
    </div>
  )
}
