/**
 * A deposit's status in words (shared/deposit-words.ts: the same words as the exports), coloured by what it means
 * for the treasury's money (money-totals.ts). An unknown code is shown as sent, never guessed.
 */
import { useTranslation } from 'react-i18next'
import { depositDisplayStatus, type DepositRecord } from '../../../../shared/deposit-record'
import { normalizeDepositStatus } from '../../../../shared/deposit-status'
import { depositStatusInWords } from '../../../../shared/deposit-words'
import { meaningOf } from '../../../../shared/money-totals'
import { currentLanguage } from '../../i18n'

/** Badge colours of the withdrawal badges, by meaning. */
const CLASS_OF = {
  paid: 'badge-paid',
  open: 'badge-processing',
  returned: 'badge-refunded',
  ended: 'badge-expired',
  other: 'badge-raw',
} as const

export function depositStatusOf(r: Pick<DepositRecord, 'localState' | 'remoteStatus'>): string {
  return depositDisplayStatus(r, normalizeDepositStatus)
}

export function DepositStatusBadge({
  record,
  testId = 'deposit-status',
}: {
  record: Pick<DepositRecord, 'localState' | 'remoteStatus'>
  testId?: string
}): React.JSX.Element {
  useTranslation()
  const status = depositStatusOf(record)
  const meaning = meaningOf(status, false, 'deposit')
  return (
    <span className={`badge ${CLASS_OF[meaning]}`} data-testid={testId} data-status={status}>
      {depositStatusInWords(status, currentLanguage())}
    </span>
  )
}
