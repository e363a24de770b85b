/**
 * What was asked for and by whom: amount, Pix key (a top-up: its DePix delivery address, marked when not
 * registered), payee (CPF/CNPJ masked), the refund address (marked when it is
 * not one of the team's registered addresses: a failed payout sends the deposit there), requester, when, notes.
 */
import { useTranslation } from 'react-i18next'
import type { ApprovalView } from '../../../../shared/channels-team'
import { currentLanguage } from '../../i18n'
import { CopyButton } from '../CopyButton'
import { AddressGroups } from '../funding/FundingInstructions'
import { SafeText } from '../SafeText'
import { DateTime } from '../format'
import { payeeOfRequest } from '../layout/payee'
import { amountText } from './approval-model'

export function ApprovalFacts({ approval: a }: { approval: ApprovalView }): React.JSX.Element {
  const { t } = useTranslation('approvals')
  const payee = payeeOfRequest(a.request)
  // Where a failed payout sends the whole deposit back (issue #24): the approver must see it.
  const refund =
    a.refundAddress ?? (typeof a.request['refundAddress'] === 'string' ? a.request['refundAddress'] : null)
  const who = (name: string): string => (a.mine && name === a.requestedBy ? t('me', { name }) : name)
  return (
    <dl className="approval-facts">
      <dt>{t('fields.amount')}</dt>
      <dd>
        <strong className="num" data-testid="approval-amount">
          {amountText(a, currentLanguage())}
        </strong>{' '}
        {a.kind === 'deposit' ? t('topUp.kind') : t(`kind.${a.amountKind}`)}
      </dd>
      {a.kind === 'deposit' && a.depixAddress ? (
        <>
          <dt>{t('topUp.depixAddress')}</dt>
          <dd data-testid="approval-depix-address">
            <AddressGroups address={a.depixAddress} />{' '}
            {a.state === 'pending' && <CopyButton text={a.depixAddress} />}
            <p className="field-hint">{t('topUp.depixAddressHint')}</p>
            {!a.depixRegistered && (
              <p className="alert alert-warn" role="note" data-testid="approval-depix-unregistered">
                {t('topUp.unregistered')}
              </p>
            )}
          </dd>
        </>
      ) : (
        <>
          <dt>{t('fields.pixKey')}</dt>
          <dd className="mono" data-testid="approval-pix-key">
            <SafeText text={a.pixKey} />
          </dd>
        </>
      )}
      {payee.taxNumber && (
        <>
          <dt>{t('fields.payee')}</dt>
          <dd className="mono">{payee.taxNumber}</dd>
        </>
      )}
      {refund && (
        <>
          <dt>{t('fields.refundAddress')}</dt>
          <dd data-testid="approval-refund-address">
            {/* Copyable while it is being decided; a decided card has no actions. */}
            <AddressGroups address={refund} /> {a.state === 'pending' && <CopyButton text={refund} />}
            <p className="field-hint">{t('fields.refundAddressHint')}</p>
            {!a.refundRegistered && (
              <p className="alert alert-warn" role="note" data-testid="approval-refund-unregistered">
                {t('refundUnregistered')}
              </p>
            )}
          </dd>
        </>
      )}
      <dt>{t('fields.requester')}</dt>
      <dd>{who(a.requestedBy)}</dd>
      <dt>{t('fields.requestedAt')}</dt>
      <dd>
        <DateTime iso={a.requestedAt} />
      </dd>
      {a.note && (
        <>
          <dt>{t('fields.note')}</dt>
          <dd className="approval-note">
            <SafeText text={a.note} />
          </dd>
        </>
      )}
      {a.decidedBy && a.state !== 'pending' && (
        <>
          <dt>{t(a.state === 'rejected' ? 'fields.rejecter' : 'fields.approver')}</dt>
          <dd>
            {a.decidedBy}
            {a.decidedAt && (
              <>
                {' · '}
                <DateTime iso={a.decidedAt} />
              </>
            )}
          </dd>
        </>
      )}
      {a.decisionNote && (
        <>
          <dt>{t(a.state === 'rejected' ? 'fields.reason' : 'fields.decisionNote')}</dt>
          <dd className="approval-note" data-testid="approval-decision-note">
            <SafeText text={a.decisionNote} />
          </dd>
        </>
      )}
    </dl>
  )
}
