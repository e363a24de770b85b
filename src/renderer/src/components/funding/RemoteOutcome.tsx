/**
 * What the service reported once the withdrawal moved on: the payout receipt when paid, and the refund (the
 * token's return) whenever one is recorded. Raw fields are shown as sent; unknown ones are kept, never dropped.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { dePixToCents, formatBRL } from '../../../../shared/money'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { normalizeStatus } from '../../../../shared/withdrawal-status'
import { currentLanguage } from '../../i18n'
import { call } from '../../ipc'
import { DateTime } from '../format'
import { rawText, receiptFacts, refundFacts } from './funding-model'

/** Amounts a person reads are in R$ (1 DePix = R$ 1,00), a refund's DePix too: nothing here is copied to a wallet. */
function Value({ k, v }: { k: string; v: unknown }): React.JSX.Element {
  if (k.endsWith('InCents') && typeof v === 'number' && Number.isSafeInteger(v)) {
    return <span className="num">{formatBRL(v, currentLanguage())}</span>
  }
  if ((k.endsWith('Date') || k.endsWith('At')) && typeof v === 'string') return <DateTime iso={v} />
  return <span className="mono">{rawText(v)}</span>
}

function ReceiptLink({ url, localId }: { url: string; localId: string }): React.JSX.Element {
  const { t } = useTranslation('funding')
  const [refused, setRefused] = useState(false)
  const open = async (): Promise<void> => {
    const r = await call('shell:openExternal', { url, localId })
    setRefused(!r.ok || !r.data.opened)
  }
  // Only https opens in the browser; the sandbox's loopback receipt is kept and shown on the detail page.
  if (!url.startsWith('https://')) return <span className="mono">{url}</span>
  return (
    <>
      <button type="button" className="btn btn-small" onClick={() => void open()}>
        {t('outcome.openReceipt')}
      </button>{' '}
      <span className="mono">{url}</span>
      {refused && <span className="field-error"> {t('outcome.receiptRefused')}</span>}
    </>
  )
}

export function RemoteOutcome({ record }: { record: WithdrawalRecord }): React.JSX.Element | null {
  const { t, i18n } = useTranslation('funding')
  const paid = record.remoteStatus !== null && normalizeStatus(record.remoteStatus) === 'sent'
  const receipt = paid ? receiptFacts(record) : []
  const refund = record.refund
  if (!paid && !refund) return null
  const label = (k: string): string => (i18n.exists(`funding:fields.${k}`) ? t(`fields.${k}`) : k)

  return (
    <section aria-labelledby="outcome-heading" className="card outcome" data-testid="remote-outcome">
      <h3 id="outcome-heading">{t(refund ? 'outcome.refundHeading' : 'outcome.paidHeading')}</h3>
      {paid && (
        <dl data-testid="receipt">
          {receipt.map(([k, v]) => (
            <div key={k} className="dl-row">
              <dt>{label(k)}</dt>
              <dd>
                {k === 'receiptUrl' && typeof v === 'string' ? (
                  <ReceiptLink url={v} localId={record.localId} />
                ) : (
                  <Value k={k} v={v} />
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {refund && (
        <>
          <p>{t('outcome.refundIntro')}</p>
          <dl data-testid="refund">
            {refundFacts(refund).map(([k, v]) => (
              <div key={k} className="dl-row">
                <dt>{label(k)}</dt>
                <dd>
                  {/* Codes in words: a known reason or initiator by its words, an unknown reason says so. */}
                  {k === 'reason' && typeof v === 'string' ? (
                    <span data-reason={v}>
                      {i18n.exists(`funding:reasons.${v}`)
                        ? t(`reasons.${v}`)
                        : t('unknownReason', { code: v })}
                    </span>
                  ) : k === 'initiatedBy' &&
                    typeof v === 'string' &&
                    i18n.exists(`funding:initiators.${v}`) ? (
                    <span data-initiator={v}>{t(`initiators.${v}`)}</span>
                  ) : (
                    <Value k={k} v={v} />
                  )}
                  {/* An amount in DePix (string with decimals) is also shown in reais. */}
                  {typeof v === 'string' && dePixToCents(v) !== null && /amount/i.test(k) && (
                    <span className="field-hint">
                      {' '}
                      ({formatBRL(dePixToCents(v) ?? 0, currentLanguage())})
                    </span>
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </section>
  )
}
