/**
 * The facts of one record an analyst checks: payee, key, amounts, the run it came from, times. Raw states and codes,
 * and the deposit address once it no longer matters here (the funding page shows it while it does), are in
 * `RecordTechnicalFacts` (under "Detalhes técnicos"). A record that ended without paying anyone (returned,
 * expired, not created) shows no payout amount and no "payee: not yet".
 */
import { useTranslation } from 'react-i18next'
import type { RunLink } from '../../../../shared/run-link'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { Button } from '../ui/Button'
import { CopyButton } from '../CopyButton'
import { AddressGroups } from '../funding/FundingInstructions'
import { Brl, DateTime } from '../format'
import { leadKind } from '../layout/LeadSentence'
import { payeeOf } from '../layout/payee'
import { StatusBadge } from '../StatusBadge'

/** Kinds of record where a payout can still happen or has happened. */
const PAYING = new Set(['awaiting', 'processing', 'paid', 'other', 'unknownOutcome'])

export function RecordSummary({
  record,
  run = null,
  onOpenRun,
}: {
  record: WithdrawalRecord
  /** The payment run ("Lote") it came from; null when made alone. */
  run?: RunLink | null
  onOpenRun?: (runId: string) => void
}): React.JSX.Element {
  const { t } = useTranslation(['detail', 'status'])
  const r = record
  const paying = PAYING.has(leadKind(r))
  const payee = payeeOf(r, run?.payee ?? null)
  const notYet = <span className="field-hint">{t('facts.notYet')}</span>
  return (
    <dl className="facts-grid" data-testid="record-summary">
      <dt>{t('facts.status')}</dt>
      <dd>
        <StatusBadge status={r.remoteStatus} localState={r.localState} hasRefund={r.refund !== null} />
      </dd>
      {(payee.name || paying) && (
        <>
          <dt>{t('facts.receiverName')}</dt>
          <dd>{payee.name ?? notYet}</dd>
        </>
      )}
      <dt>{t('facts.pixKey')}</dt>
      <dd>
        <code className="mono">{r.pixKey}</code> <CopyButton text={r.pixKey} />
      </dd>
      {payee.taxNumber && (
        <>
          <dt>{t('withdrawal:review.taxNumber')}</dt>
          <dd className="mono">{payee.taxNumber}</dd>
        </>
      )}
      <dt>{t('facts.requested')}</dt>
      <dd>
        <Brl cents={r.amountCents} /> ({t(`amountKind.${r.amountKind}`)})
      </dd>
      <dt>{t('facts.deposit')}</dt>
      <dd>{r.depositAmountCents === null ? notYet : <Brl cents={r.depositAmountCents} />}</dd>
      {paying && (
        <>
          <dt>{t('facts.payout')}</dt>
          <dd>
            {r.payoutAmountCents === null ? notYet : <Brl cents={r.payoutAmountCents} />}
            {/* Only while the service may still recalculate it: once paid, the amount is what was paid. */}
            {leadKind(r) !== 'paid' && (
              <>
                {' '}
                <span className="field-hint">{t('facts.payoutHint')}</span>
              </>
            )}
          </dd>
        </>
      )}
      {run && (
        <>
          <dt>{t('facts.run')}</dt>
          <dd data-testid="detail-run">
            {t('facts.runLine', { name: run.name, line: run.line })}{' '}
            {onOpenRun && (
              <Button variant="link" onClick={() => onOpenRun(run.runId)}>
                {t('facts.openRun')}
              </Button>
            )}
          </dd>
        </>
      )}
      <dt>{t('facts.createdAt')}</dt>
      <dd>
        <DateTime iso={r.createdAt} />
      </dd>
      {r.expiration && (
        <>
          <dt>{t('facts.expiration')}</dt>
          <dd>
            <DateTime iso={r.expiration} />
          </dd>
        </>
      )}
      {r.fundedAt && (
        <>
          <dt>{t('facts.fundedAt')}</dt>
          <dd>
            <DateTime iso={r.fundedAt} />
          </dd>
        </>
      )}
      <dt>{t('facts.profile')}</dt>
      <dd>{r.profile}</dd>
      <dt>{t('facts.operator')}</dt>
      <dd>{r.operator}</dd>
    </dl>
  )
}

/** What support asks for: raw states, every timestamp, the funding transaction. */
export function RecordTechnicalFacts({ record }: { record: WithdrawalRecord }): React.JSX.Element {
  const { t } = useTranslation(['detail', 'status'])
  const r = record
  const notYet = <span className="field-hint">{t('facts.notYet')}</span>
  return (
    <dl data-testid="record-technical">
      <dt>{t('facts.localState')}</dt>
      <dd>
        {t(`status:state.${r.localState}`, { defaultValue: r.localState })} (<code>{r.localState}</code>)
      </dd>
      <dt>{t('facts.remoteStatus')}</dt>
      <dd>
        {r.remoteStatus ? <code data-testid="remote-status-raw">{r.remoteStatus}</code> : t('facts.noStatus')}
      </dd>
      <dt>{t('facts.updatedAt')}</dt>
      <dd>
        <DateTime iso={r.updatedAt} />
      </dd>
      <dt>{t('facts.remoteStatusAt')}</dt>
      <dd>{r.remoteStatusAt ? <DateTime iso={r.remoteStatusAt} /> : notYet}</dd>
      <dt>{t('facts.remoteCheckedAt')}</dt>
      <dd>{r.remoteCheckedAt ? <DateTime iso={r.remoteCheckedAt} /> : notYet}</dd>
      {r.depositAddress && (
        <>
          <dt>{t('facts.depositAddress')}</dt>
          <dd>
            <AddressGroups address={r.depositAddress} />
          </dd>
        </>
      )}
      {r.fundingTxId && (
        <>
          <dt>{t('facts.fundingTxId')}</dt>
          <dd>
            <code className="mono">{r.fundingTxId}</code>
          </dd>
        </>
      )}
    </dl>
  )
}
