/**
 * What was asked for and by whom: amount, Pix key, payee (CPF/CNPJ masked), the refund address (marked when it is
 * not one of the team's registered addresses: a failed payout sends the deposit there), requester, when, notes.
 */
import { useTranslation } from 'react-i18next'
import type { ApprovalView } from '../../../../shared/channels-team'
import { currentLanguage } from '../../i18n'
import { DateTime } from '../format'
import { payeeOfRequest } from '../layout/payee'
import { amountText } from './approval-model'

export function ApprovalFacts({ approval: a }: { approval: ApprovalView }): React.JSX.Element {
  const { t } = useTranslation('approvals')
  const payee = payeeOfRequest(a.request)
  const who = (name: string): string => (a.mine && name === a.requestedBy ? t('me', { name }) : name)
  return (
    <dl className="approval-facts">
      <dt>{t('fields.amount')}</dt>
      <dd>
        <strong className="num" data-testid="approval-amount">
          {amountText(a, currentLanguage())}
        </strong>{' '}
        {t(`kind.${a.amountKind}`)}
      </dd>
      <dt>{t('fields.pixKey')}</dt>
      <dd className="mono" data-testid="approval-pix-key">
        {a.pixKey}
      </dd>
      {payee.taxNumber && (
        <>
          <dt>{t('fields.payee')}</dt>
          <dd className="mono">{payee.taxNumber}</dd>
        </>
      )}
      {a.refundAddress && (
        <>
          <dt>{t('fields.refundAddress')}</dt>
          <dd>
            <span className="mono" data-testid="approval-refund-address">
              {a.refundAddress}
            </span>
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
          <dd className="approval-note">{a.note}</dd>
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
            {a.decisionNote}
          </dd>
        </>
      )}
    </dl>
  )
}
