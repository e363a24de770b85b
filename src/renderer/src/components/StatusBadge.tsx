/**
 * A withdrawal's status as words and a color. Our local state speaks until the service has created the
 * withdrawal; after that the remote status does. One we do not know (docs/API-CONTRACT.md#s3-2: the full set is "not shown") says
 * so in words, "Situação não reconhecida", with the service's code on hover and in `data-status` (the detail page
 * shows it under "Detalhes técnicos"): never guessed, never a crash, no raw code in the sentence.
 */
import { useTranslation } from 'react-i18next'
import { LOCAL_STATES } from '../../../shared/withdrawal-record'
import {
  isKnownStatus,
  normalizeStatus,
  statusCategory,
  type StatusCategory,
} from '../../../shared/withdrawal-status'

/** Color families. Remote statuses use `statusCategory`; local states map onto the same families plus two of
 * their own: `attention` (someone must act) and `rejected`. */
export type BadgeCategory = StatusCategory | 'attention' | 'rejected'

export type BadgeLabel =
  | { kind: 'remote'; key: string }
  | { kind: 'local'; key: string }
  /** Shown exactly as given. */
  | { kind: 'raw'; text: string }

export interface BadgeModel {
  label: BadgeLabel
  category: BadgeCategory
  /** A refund exists but the words do not already say "refunded". */
  refundSuffix: boolean
  /** Key of the explanatory hint in the 'status' namespace, when there is one. */
  hint: string
}

const LOCAL_CATEGORIES: Readonly<Record<(typeof LOCAL_STATES)[number], BadgeCategory>> = {
  submitting: 'processing',
  created: 'processing',
  rejected: 'rejected',
  outcome_unknown: 'attention',
  not_created: 'cancelled',
}

function isLocalState(s: string): s is (typeof LOCAL_STATES)[number] {
  return (LOCAL_STATES as readonly string[]).includes(s)
}

/** Pure: what a badge says and how it is colored. Never throws, whatever strings it gets. */
export function badgeModel(status: string | null, localState: string, hasRefund: boolean): BadgeModel {
  const remote = typeof status === 'string' && status.trim() !== '' ? status : null
  if (localState !== 'created' || remote === null) {
    if (!isLocalState(localState)) {
      return {
        label: { kind: 'raw', text: String(localState) },
        category: 'unknown',
        refundSuffix: hasRefund,
        hint: 'unknown',
      }
    }
    return {
      label: { kind: 'local', key: localState },
      category: hasRefund ? 'refunded' : LOCAL_CATEGORIES[localState],
      refundSuffix: hasRefund,
      hint: localState,
    }
  }
  const normal = normalizeStatus(remote)
  const category = statusCategory(remote, hasRefund)
  const refundSuffix = hasRefund && normal !== 'refunded'
  if (!isKnownStatus(remote))
    return { label: { kind: 'raw', text: remote }, category, refundSuffix, hint: 'unknown' }
  return { label: { kind: 'remote', key: normal }, category, refundSuffix, hint: normal }
}

export interface StatusBadgeProps {
  status: string | null
  localState: string
  hasRefund: boolean
}

export function StatusBadge({ status, localState, hasRefund }: StatusBadgeProps): React.JSX.Element {
  const { t } = useTranslation('status')
  const m = badgeModel(status, localState, hasRefund)
  const raw = m.label.kind === 'raw'
  return (
    <span
      className={`badge badge-${m.category}${raw ? ' badge-raw' : ''}`}
      data-category={m.category}
      data-status={status ?? localState}
      title={m.label.kind === 'raw' ? t('unknownTitle', { code: m.label.text }) : t(`hint.${m.hint}`)}
    >
      {m.label.kind === 'raw' ? t('unknownLabel') : t(`${m.label.kind}.${m.label.key}`)}
      {m.refundSuffix && <> · {t('withRefund')}</>}
    </span>
  )
}
