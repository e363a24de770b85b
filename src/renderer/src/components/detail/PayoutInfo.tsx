/** Payout data from the last status body, as the service sent it (receiver tax number stays masked as given). */
import { useTranslation } from 'react-i18next'
import type { LiquidNetwork } from '../../../../shared/profile'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { CopyButton } from '../CopyButton'
import { DateTime } from '../format'
import { ExternalButton } from './ExternalButton'
import { explorerTxUrl, text } from './raw'

export function TxId({
  txId,
  network,
}: {
  txId: string
  network: LiquidNetwork | undefined
}): React.JSX.Element {
  const { t } = useTranslation('detail')
  const url = explorerTxUrl(txId, network)
  return (
    <>
      <code className="mono">{txId}</code> <CopyButton text={txId} />{' '}
      {url && <ExternalButton url={url} label={t('explorer')} />}
    </>
  )
}

export function PayoutInfo({
  record,
  network,
  readOnly,
}: {
  record: WithdrawalRecord
  network: LiquidNetwork | undefined
  readOnly?: boolean
}): React.JSX.Element {
  const { t } = useTranslation('detail')
  const body = record.lastRemote
  const receiverName = text(body, 'receiverName') ?? record.receiverName
  const taxNumber = text(body, 'receiverTaxNumber')
  const transferDate = text(body, 'transferDate')
  const centralBankId = text(body, 'centralBankId')
  const receiptUrl = text(body, 'receiptUrl')
  const blockchainTxId = text(body, 'blockchainTxID')
  const refundAddress = text(body, 'refundAddress') ?? text(record.request, 'refundAddress')
  const any = receiverName || taxNumber || transferDate || centralBankId || receiptUrl
  return (
    <div data-testid="payout-info">
      {!any && <p>{t('payout.none')}</p>}
      <dl>
        {receiverName && (
          <>
            <dt>{t('payout.receiverName')}</dt>
            <dd data-testid="receiver-name">{receiverName}</dd>
          </>
        )}
        {taxNumber && (
          <>
            <dt>{t('payout.receiverTaxNumber')}</dt>
            <dd className="mono" data-testid="receiver-tax-number">
              {taxNumber}
            </dd>
          </>
        )}
        {transferDate && (
          <>
            <dt>{t('payout.transferDate')}</dt>
            <dd>
              <DateTime iso={transferDate} />
            </dd>
          </>
        )}
        {centralBankId && (
          <>
            <dt>{t('payout.centralBankId')}</dt>
            <dd>
              <code className="mono" data-testid="central-bank-id">
                {centralBankId}
              </code>{' '}
              <CopyButton text={centralBankId} />
            </dd>
          </>
        )}
        {receiptUrl && (
          <>
            <dt>{t('payout.receipt')}</dt>
            <dd>
              <span className="mono receipt-url">{receiptUrl}</span>{' '}
              {/* Only https opens in the browser; the sandbox's loopback receipt is shown locally (ReceiptViewer). */}
              {!readOnly && receiptUrl.startsWith('https://') && (
                <ExternalButton url={receiptUrl} localId={record.localId} label={t('payout.openReceipt')} />
              )}
            </dd>
          </>
        )}
        {blockchainTxId && (
          <>
            <dt>{t('payout.blockchainTxId')}</dt>
            <dd>
              <TxId txId={blockchainTxId} network={network} />
            </dd>
          </>
        )}
        {refundAddress && (
          <>
            <dt>{t('payout.refundAddress')}</dt>
            <dd className="mono">{refundAddress}</dd>
          </>
        )}
      </dl>
    </div>
  )
}
