/**
 * The one sentence every money screen leads with, in large type: pay R$ payout to payee — send exact DePix by
 * deadline (time left). Fee and deposit right below. Finished records say what happened instead (paid, returned,
 * expired), never the instructions.
 */
import { Trans, useTranslation } from 'react-i18next'
import type { FundingInstructions } from '../../../../shared/contract'
import { formatBRL, formatDePix } from '../../../../shared/money'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'
import { badgeModel } from '../StatusBadge'
import { currentLanguage } from '../../i18n'
import { StatusBadge } from '../StatusBadge'
import { formatDateTime } from '../format'
import { timeLeft } from './deadline'
import { depositCentsOf, feeCentsOf, payeeOf, payeeText, payoutCentsOf } from './payee'
import { useNowTick } from './useNow'

export interface LeadFact {
  label: string
  value: string
  testId: string
}

function Facts({ facts }: { facts: LeadFact[] }): React.JSX.Element | null {
  if (facts.length === 0) return null
  return (
    <dl className="lead-facts">
      {facts.map((f) => (
        <div key={f.testId} className="lead-fact">
          <dt>{f.label}</dt>
          <dd className="num" data-testid={f.testId}>
            {f.value}
          </dd>
        </div>
      ))}
    </dl>
  )
}

export function LeadBox({
  sentence,
  facts,
  tone,
  badge,
}: {
  sentence: React.ReactNode
  facts: LeadFact[]
  tone: string
  badge?: React.ReactNode
}): React.JSX.Element {
  return (
    <section className={`lead lead-${tone}`} data-testid="lead" data-tone={tone}>
      {badge && <div className="lead-badge">{badge}</div>}
      <p className="lead-sentence" data-testid="lead-sentence">
        {sentence}
      </p>
      <Facts facts={facts} />
    </section>
  )
}

/** Which sentence a record gets. */
export function leadKind(record: WithdrawalRecord): string {
  if (record.localState === 'outcome_unknown') return 'unknownOutcome'
  if (record.localState === 'not_created' || record.localState === 'rejected') return 'notCreated'
  const m = badgeModel(record.remoteStatus, record.localState, record.refund !== null)
  switch (m.category) {
    case 'awaiting_funding':
      return 'awaiting'
    case 'processing':
      return 'processing'
    case 'paid':
      return 'paid'
    case 'refunded':
      return 'refunded'
    case 'expired':
      return 'expired'
    case 'failed':
      return 'failed'
    case 'cancelled':
      return 'cancelled'
    default:
      return 'other'
  }
}

const TONES: Readonly<Record<string, string>> = {
  awaiting: 'pending',
  processing: 'pending',
  paid: 'success',
  refunded: 'neutral',
  expired: 'neutral',
  cancelled: 'neutral',
  notCreated: 'neutral',
  failed: 'failure',
  unknownOutcome: 'attention',
  other: 'attention',
}

export function RecordLead({
  record,
  funding,
  runPayee = null,
}: {
  record: WithdrawalRecord
  funding?: FundingInstructions | null
  /** The name on the spreadsheet row of the run the payment came from (names first). */
  runPayee?: string | null
}): React.JSX.Element {
  const { t } = useTranslation(['layout', 'status'])
  const lang = currentLanguage()
  const now = useNowTick()
  const kind = leadKind(record)
  const payout = payoutCentsOf(record)
  const deposit = funding?.cents ?? depositCentsOf(record)
  const fee = feeCentsOf(record)
  const expiration = funding?.expiration ?? record.expiration
  const left = timeLeft(expiration, now)
  let sentenceKey = kind
  if (kind === 'awaiting' && (expiration === null || left.state === 'none'))
    sentenceKey = 'awaitingNoDeadline'
  const m = badgeModel(record.remoteStatus, record.localState, record.refund !== null)
  const statusWords =
    m.label.kind === 'raw' ? m.label.text : t(`status:${m.label.kind}.${m.label.key}`, { defaultValue: '' })
  const values = {
    payout: payout === null ? '—' : formatBRL(payout, lang),
    payee: payeeText(payeeOf(record, runPayee)),
    deposit: deposit === null ? '—' : formatDePix(deposit, lang),
    deadline: expiration ? formatDateTime(expiration, lang) : '',
    left:
      left.state === 'running'
        ? t('lead.left', { time: left.text })
        : left.state === 'expired'
          ? t('lead.leftExpired')
          : '',
    status: statusWords,
  }
  // Finished without a payment: no payout amount, no fee (nothing was paid).
  const showMoney = kind === 'awaiting' || kind === 'processing' || kind === 'paid' || kind === 'other'
  const facts: LeadFact[] = []
  if (showMoney && payout !== null)
    facts.push({ label: t('lead.payout'), value: formatBRL(payout, lang), testId: 'lead-payout' })
  if (showMoney && deposit !== null)
    facts.push({
      label: t(kind === 'awaiting' ? 'lead.deposit' : 'lead.depositSent'),
      value: formatDePix(deposit, lang),
      testId: 'lead-deposit',
    })
  if (showMoney && fee !== null)
    facts.push({
      label: t(kind === 'paid' ? 'lead.feePaid' : 'lead.fee'),
      value: formatBRL(fee, lang),
      testId: 'lead-fee',
    })
  if (kind === 'awaiting' && expiration)
    facts.push({
      label: t('lead.deadline'),
      value: `${values.deadline}${values.left ? ` · ${values.left}` : ''}`,
      testId: 'lead-deadline',
    })
  return (
    <LeadBox
      tone={
        left.state === 'running' && left.soon && kind === 'awaiting'
          ? 'attention'
          : (TONES[kind] ?? 'neutral')
      }
      badge={
        <StatusBadge
          status={record.remoteStatus}
          localState={record.localState}
          hasRefund={record.refund !== null}
        />
      }
      sentence={
        <Trans t={t} i18nKey={`lead.${sentenceKey}`} values={values} components={{ b: <strong /> }} />
      }
      facts={facts}
    />
  )
}
