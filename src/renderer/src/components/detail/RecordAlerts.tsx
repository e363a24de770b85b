/**
 * What needs the operator's attention, at the top of the detail: flags (a bad deposit address is the loudest),
 * an unknown outcome to resolve, and where to fund a withdrawal that waits for its deposit.
 */
import { useTranslation } from 'react-i18next'
import type { WithdrawalDetail } from '../../../../shared/contract'
import { RECORD_FLAGS } from '../../../../shared/withdrawal-record'
import { statusCategory } from '../../../../shared/withdrawal-status'
import { Alert } from '../ui/Alert'

const LOUD_FLAGS: readonly string[] = [
  RECORD_FLAGS.depositAddressInvalid,
  RECORD_FLAGS.depositAddressChanged,
  RECORD_FLAGS.pixKeyMismatch,
  RECORD_FLAGS.payeeMismatch,
]
const KNOWN_FLAGS: readonly string[] = [
  ...Object.values(RECORD_FLAGS),
  'remote_not_found',
  'remote_fields_invalid',
  'duplicate_confirmed',
]
const KNOWN_FUNDING_PROBLEMS = [
  'deposit_address_invalid',
  'deposit_address_changed',
  'other_profile',
  'not_created',
  'terminal',
  'not_awaiting_funding',
  'no_deposit_address',
  'no_deposit_amount',
  'expired',
  'funding_mismatch',
  'funding_unconfirmed',
]

export function FlagAlerts({ flags }: { flags: readonly string[] }): React.JSX.Element | null {
  const { t } = useTranslation('detail')
  if (flags.length === 0) return null
  // The flag's code is for support, under "Detalhes técnicos": a pt-BR screen says it in words (issue #26).
  return (
    <div data-testid="flag-alerts">
      {flags.map((f) => (
        <Alert
          key={f}
          tone={LOUD_FLAGS.includes(f) ? 'error' : 'warn'}
          loud={LOUD_FLAGS.includes(f)}
          dataset={{ 'data-flag': f }}
          title={LOUD_FLAGS.includes(f) || KNOWN_FLAGS.includes(f) ? t(`flags.${f}`) : t('flags.other')}
          technical={<code>{f}</code>}
        />
      ))}
    </div>
  )
}

/** Funding: a way to the instructions while the withdrawal waits for its deposit, or why there are none. */
export function FundingStatus({
  detail,
  onOpenFunding,
}: {
  detail: WithdrawalDetail
  onOpenFunding: () => void
}): React.JSX.Element | null {
  const { t } = useTranslation('detail')
  const r = detail.record
  const awaiting =
    r.localState === 'created' &&
    statusCategory(r.remoteStatus ?? 'unsent', r.refund !== null) === 'awaiting_funding'
  if (detail.funding && awaiting) {
    return (
      <div className="alert alert-info" data-testid="funding-link">
        <p>{t('funding.awaiting')}</p>
        <button type="button" className="btn btn-primary" onClick={onOpenFunding}>
          {t('funding.open')}
        </button>
      </div>
    )
  }
  const p = detail.fundingProblem
  if (!p) return null
  const known = KNOWN_FUNDING_PROBLEMS.includes(p)
  const loud =
    p === 'deposit_address_invalid' ||
    p === 'deposit_address_changed' ||
    p === 'expired' ||
    p === 'funding_mismatch'
  // A finished or never-created withdrawal needs no funding: say it quietly.
  return (
    <p className={loud ? 'alert alert-error' : 'field-hint'} data-funding-problem={p}>
      {known ? t(`funding.problems.${p}`) : <code>{p}</code>}
    </p>
  )
}

export function UnknownOutcomeNotice({ onResolve }: { onResolve: () => void }): React.JSX.Element {
  const { t } = useTranslation('detail')
  return (
    <div className="alert alert-warn alert-loud" data-testid="unknown-outcome">
      <p className="alert-title">{t('unknown.title')}</p>
      <p>{t('unknown.body')}</p>
      <button type="button" className="btn btn-primary" onClick={onResolve}>
        {t('unknown.resolve')}
      </button>
    </div>
  )
}
