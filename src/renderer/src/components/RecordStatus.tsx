/**
 * The payee check next to a payment wherever it is listed (issue #26): "Favorecido diferente do cadastro" with the
 * reason — the name the service reported for the key's owner against the book entry's — never a bare green "Pago".
 */
import { useTranslation } from 'react-i18next'
import { RECORD_FLAGS, type WithdrawalRecord } from '../../../shared/withdrawal-record'
import { StatusBadge } from './StatusBadge'
import { StatusChip } from './ui/StatusChip'

export function payeeMismatchReason(
  record: WithdrawalRecord,
): { reported: string | null; expected: string | null } | null {
  if (!record.flags.includes(RECORD_FLAGS.payeeMismatch)) return null
  const reported = record.lastRemote?.['receiverName']
  return {
    reported: typeof reported === 'string' && reported !== '' ? reported : record.receiverName,
    expected: record.expectedPayee?.name ?? null,
  }
}

/**
 * A record's status where it is listed: the status badge, or — when the payee check failed — the mismatch in
 * words with its reason (on hover and for screen readers), since "Pago" alone would read as all fine.
 */
export function RecordStatus({
  record,
  showReason = false,
}: {
  record: WithdrawalRecord
  /** Say the mismatch's reason on screen (Hoje's mismatch card), not only on hover. */
  showReason?: boolean
}): React.JSX.Element {
  const { t } = useTranslation('layout')
  const badge = (
    <StatusBadge
      status={record.remoteStatus}
      localState={record.localState}
      hasRefund={record.refund !== null}
    />
  )
  const m = payeeMismatchReason(record)
  if (!m) return badge
  const reason = t('payeeCheck.reason', {
    reported: m.reported ?? t('payeeCheck.unknownName'),
    expected: m.expected ?? t('payeeCheck.unknownName'),
  })
  return (
    <span className="payee-check" title={reason} data-testid="payee-mismatch">
      <StatusChip tone="attention">{t('payeeCheck.mismatch')}</StatusChip>
      {showReason && <span className="cell-note">{reason}</span>}
      <span className="visually-hidden">
        {' '}
        {showReason ? '' : reason} {badge}
      </span>
    </span>
  )
}
