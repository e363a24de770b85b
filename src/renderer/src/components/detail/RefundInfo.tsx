/**
 * The `refund` object, raw (docs/API-CONTRACT.md#s2-3 names only `txId` and `reason`): the tx linked to the explorer, the reason in
 * words when we know it, fee and amount when fields carry them, and every other field listed as sent.
 */
import { Fragment } from 'react'
import { useTranslation } from 'react-i18next'
import type { LiquidNetwork } from '../../../../shared/profile'
import { Brl } from '../format'
import { TxId } from './PayoutInfo'
import { display, firstCents, KNOWN_REFUND_REASONS, REFUND_AMOUNT_KEYS, REFUND_FEE_KEYS, text } from './raw'

export function RefundReason({ reason }: { reason: string }): React.JSX.Element {
  const { t } = useTranslation('detail')
  // Known: words only (the code stays in data-reason and the technical details). Unknown: says so, code beside.
  if ((KNOWN_REFUND_REASONS as readonly string[]).includes(reason)) {
    return <span data-reason={reason}>{t(`refund.reasons.${reason}`)}</span>
  }
  return <span data-reason={reason}>{t('refund.rawReason', { code: reason })}</span>
}

/** Who started the return, in words when we know the value; as sent otherwise. */
function Initiator({ by }: { by: string }): React.JSX.Element {
  const { t, i18n } = useTranslation('detail')
  return (
    <span data-initiator={by}>
      {i18n.exists(`detail:refund.initiators.${by}`) ? t(`refund.initiators.${by}`) : by}
    </span>
  )
}

export function RefundInfo({
  refund,
  network,
}: {
  refund: Record<string, unknown>
  network: LiquidNetwork | undefined
}): React.JSX.Element {
  const { t } = useTranslation('detail')
  const txId = text(refund, 'txId')
  const reason = text(refund, 'reason')
  const initiatedBy = text(refund, 'initiatedBy')
  const fee = firstCents(refund, REFUND_FEE_KEYS)
  const amount = firstCents(refund, REFUND_AMOUNT_KEYS)
  const shown = new Set<string>(['txId', 'reason', 'initiatedBy', fee?.key ?? '', amount?.key ?? ''])
  const others = Object.entries(refund).filter(([k]) => !shown.has(k))
  return (
    <div data-testid="refund-info">
      <p>{t('refund.intro')}</p>
      <dl>
        {txId && (
          <>
            <dt>{t('refund.txId')}</dt>
            <dd data-testid="refund-txid">
              <TxId txId={txId} network={network} />
            </dd>
          </>
        )}
        {reason && (
          <>
            <dt>{t('refund.reason')}</dt>
            <dd data-testid="refund-reason">
              <RefundReason reason={reason} />
            </dd>
          </>
        )}
        {initiatedBy && (
          <>
            <dt>{t('refund.initiatedBy')}</dt>
            <dd data-testid="refund-initiated-by">
              <Initiator by={initiatedBy} />
            </dd>
          </>
        )}
        {fee && (
          <>
            <dt>{t('refund.fee')}</dt>
            <dd data-testid="refund-fee">
              <Brl cents={fee.cents} />
            </dd>
          </>
        )}
        {amount && (
          <>
            <dt>{t('refund.amount')}</dt>
            <dd data-testid="refund-amount">
              <Brl cents={amount.cents} />
            </dd>
          </>
        )}
      </dl>
      {others.length > 0 && (
        <>
          <h4>{t('refund.other')}</h4>
          <dl>
            {others.map(([k, v]) => (
              <Fragment key={k}>
                <dt>
                  <code>{k}</code>
                </dt>
                <dd className="mono">{display(v)}</dd>
              </Fragment>
            ))}
          </dl>
        </>
      )}
    </div>
  )
}
