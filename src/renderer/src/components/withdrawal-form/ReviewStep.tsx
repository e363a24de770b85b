/**
 * The last look before money moves: the exact JSON body that will be sent, the expected fee and both amounts
 * from main's quote, the refund address as main checked it, and any similar withdrawal of the last 24 hours,
 * which must be explicitly confirmed as not a duplicate before Create is allowed. Above a team's limit (quote
 * `needsApproval`, issue #16) the same review asks another analyst's approval instead of creating.
 */
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { WITHDRAWAL_FEE_FLOOR_CENTS } from '../../../../shared/api-limits'
import type { IpcError, WithdrawalQuote } from '../../../../shared/contract'
import { formatBRL, formatDePix, parseBRLToCents } from '../../../../shared/money'
import { needsDeskConfirmation } from '../../../../shared/desk-limit'
import { DeskConfirmation, useDeskLimit } from './DeskConfirmation'
import { maskTaxId } from '../../../../shared/tax-id'
import { currentLanguage } from '../../i18n'
import { ErrorNotice } from '../ErrorNotice'
import { DateTime } from '../format'
import { StatusBadge } from '../StatusBadge'
import { formatBps } from '../../../../shared/fees'
import { requestAmount } from './form-model'
import { useLiquidRefusal } from './RefundAddressField'
import { ReviewLead } from '../layout/ReviewLead'
import { TechnicalDetails } from '../layout/TechnicalDetails'
import { useApp } from '../../stores/app'
import type { WithdrawalDraft } from '../../../../shared/withdrawal'
import { ReviewPayeeFacts } from '../payees/ReviewPayeeFacts'
import { ApprovalNeeded } from '../approvals/ApprovalRequest'

interface Props {
  quote: WithdrawalQuote
  /** The draft reviewed: its references are shown (they are not part of the request body). */
  draft?: WithdrawalDraft
  network: string | undefined
  creating: boolean
  error: IpcError | null
  onBack: () => void
  /**
   * `note`: for the approver, when the quote needs approval. `typedCents`: the amount typed again on a live
   * profile above the desk limit (issue #26).
   */
  onConfirm: (confirmDuplicate: boolean, note?: string, typedCents?: number) => void
}

function text(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null
}

export function ReviewStep({
  quote,
  draft,
  network,
  creating,
  error,
  onBack,
  onConfirm,
}: Props): React.JSX.Element {
  const { t } = useTranslation('withdrawal')
  const lang = currentLanguage()
  const refusal = useLiquidRefusal()
  const [notDuplicate, setNotDuplicate] = useState(false)
  const [note, setNote] = useState('')
  const needsApproval = quote.needsApproval === true
  const headingRef = useRef<HTMLHeadingElement>(null)
  useEffect(() => headingRef.current?.focus(), [])
  const req = quote.request
  const taxNumber = text(req['taxNumber'])
  const euid = text(req['euid'])
  const amount = requestAmount(req)
  const hasDuplicates = quote.duplicates.length > 0
  const refund = quote.refundAddress
  const info = useApp((st) => st.info)
  const profile = info?.profileName ?? info?.network ?? ''
  const createLabel = needsApproval ? t('approvals:request.button') : t('layout:review.create', { profile })
  const busyLabel = needsApproval ? t('approvals:request.busy') : t('review.creating')
  const limit = useDeskLimit()
  const [typed, setTyped] = useState('')
  const typedCents = parseBRLToCents(typed, lang)
  const confirmAmount =
    !needsApproval &&
    info !== null &&
    amount !== null &&
    needsDeskConfirmation(info.sandbox ? 'sandbox' : 'live', limit, amount.cents)
      ? amount.cents
      : null
  const blocked =
    creating ||
    (hasDuplicates && !notDuplicate) ||
    !refund.ok ||
    (confirmAmount !== null && typedCents !== confirmAmount)

  return (
    <section aria-labelledby="review-heading" className="card review">
      <h3 id="review-heading" tabIndex={-1} ref={headingRef}>
        {t('review.heading')}
      </h3>
      <ReviewLead quote={quote} />
      <p>{t(needsApproval ? 'approvals:request.intro' : 'review.intro')}</p>
      <dl data-testid="review-summary">
        <ReviewPayeeFacts payee={quote.payee ?? null} references={draft?.references} />
        <dt>{t('review.pixKey')}</dt>
        <dd className="mono">{text(req['pixKey'])}</dd>
        {taxNumber && (
          <>
            <dt>{t('review.taxNumber')}</dt>
            <dd className="mono">{maskTaxId(taxNumber)}</dd>
          </>
        )}
        {euid && (
          <>
            <dt>{t('review.euid')}</dt>
            <dd className="mono">{euid}</dd>
          </>
        )}
        {amount && (
          <>
            <dt>{t('review.given')}</dt>
            <dd>
              {t(`amount.kind.${amount.kind}`)}: <span className="num">{formatBRL(amount.cents, lang)}</span>
            </dd>
          </>
        )}
        <dt>{t('review.deposit')}</dt>
        <dd className="num" data-testid="review-deposit">
          {formatDePix(quote.depositCents, lang)}
        </dd>
        <dt>{t('review.fee')}</dt>
        <dd data-testid="review-fee">
          <span className="num">{formatBRL(quote.feeCents, lang)}</span>{' '}
          <span className="field-hint">
            {t('review.feeRule', {
              rate: formatBps(quote.partnerRateBps, lang, 'fixed'),
              floor: formatBRL(WITHDRAWAL_FEE_FLOOR_CENTS, lang),
            })}
          </span>
        </dd>
        <dt>{t('review.payout')}</dt>
        <dd className="num" data-testid="review-payout">
          {formatBRL(quote.payoutCents, lang)}
        </dd>
        <dt>{t('review.refundAddress')}</dt>
        <dd>
          <span className="mono">{text(req['refundAddress'])}</span>
          <br />
          {refund.ok ? (
            <span className="field-ok">
              {t('refund.valid', {
                network: t(`networks.${refund.network}`),
                kind: t(refund.confidential ? 'refund.confidential' : 'refund.unconfidential'),
              })}
            </span>
          ) : (
            <span className="field-error">{refusal(refund, network)}</span>
          )}
        </dd>
      </dl>
      <p className="field-hint">{t('review.recalcNote')}</p>

      <TechnicalDetails>
        <h4 id="request-json-heading">{t('review.jsonHeading')}</h4>
        <pre className="mono request-json" data-testid="request-json" tabIndex={0}>
          {JSON.stringify(req, null, 2)}
        </pre>
      </TechnicalDetails>

      {hasDuplicates && (
        <div className="alert alert-warn" role="alert" data-testid="duplicates">
          <p className="alert-title">{t('review.duplicates.title', { count: quote.duplicates.length })}</p>
          <ul>
            {quote.duplicates.map((d) => (
              <li key={d.localId}>
                <DateTime iso={d.createdAt} /> · <span className="mono">{d.pixKey}</span> ·{' '}
                {t(`amount.kind.${d.amountKind}`)}{' '}
                <span className="num">{formatBRL(d.amountCents, lang)}</span> ·{' '}
                <StatusBadge
                  status={d.remoteStatus}
                  localState={d.localState}
                  hasRefund={d.refund !== null}
                />
              </li>
            ))}
          </ul>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={notDuplicate}
              onChange={(e) => setNotDuplicate(e.target.checked)}
              data-testid="confirm-not-duplicate"
            />
            {t('review.duplicates.confirm')}
          </label>
        </div>
      )}

      {needsApproval && <ApprovalNeeded note={note} onNote={setNote} disabled={creating} />}

      {confirmAmount !== null && limit !== null && (
        <DeskConfirmation
          limitCents={limit}
          typed={typed}
          onTyped={setTyped}
          matches={typedCents === confirmAmount}
        />
      )}

      {error && <ErrorNotice error={error} />}

      {info && (
        <p
          className={info.sandbox ? 'profile-note profile-note-sandbox' : 'profile-note profile-note-live'}
          data-testid="review-profile"
        >
          {t(info.sandbox ? 'layout:review.profileSandbox' : 'layout:review.profileLive', { profile })}
        </p>
      )}
      <div className="actions">
        <button type="button" className="btn" onClick={onBack} disabled={creating}>
          {t('review.back')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={blocked}
          aria-busy={creating || undefined}
          onClick={() =>
            onConfirm(
              hasDuplicates && notDuplicate,
              needsApproval ? note.trim() : undefined,
              confirmAmount !== null && typedCents !== null ? typedCents : undefined,
            )
          }
        >
          {creating ? busyLabel : createLabel}
        </button>
      </div>
    </section>
  )
}
