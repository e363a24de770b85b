/**
 * Top-ups as a table (newest first as given) and their totals by meaning: the live list and the offline review of a
 * deposit export show them the same way. Imported records say "feita fora do aplicativo" on their row; a record
 * with an attention flag (MED, value mismatch, unknown at the service) says "Precisa de ação".
 */
import { useTranslation } from 'react-i18next'
import { DEPOSIT_ATTENTION_FLAGS, type DepositRecord } from '../../../../shared/deposit-record'
import { MEANINGS, meaningTotals } from '../../../../shared/money-totals'
import type { StatusTotal } from '../../../../shared/withdrawal-record'
import { Brl, DateTime } from '../format'
import { DepositStatusBadge } from './DepositStatus'

const GROUP_KEY = {
  paid: 'paid',
  open: 'openGroup',
  returned: 'returned',
  ended: 'ended',
  other: 'other',
} as const

export function DepositTotals({ totals }: { totals: readonly StatusTotal[] }): React.JSX.Element {
  const { t } = useTranslation('deposits')
  const meaning = meaningTotals(totals, 'deposit')
  return (
    <section className="card" aria-labelledby="deposit-totals-heading">
      <h3 id="deposit-totals-heading">{t('list.totals')}</h3>
      <dl data-testid="deposit-totals">
        {MEANINGS.filter((k) => k !== 'other' || meaning.other.count > 0).map((k) => (
          <div key={k} data-meaning={k}>
            <dt>{t(`list.${GROUP_KEY[k]}`)}</dt>
            <dd>
              <Brl cents={meaning[k].depositCents} /> · {t('list.count', { count: meaning[k].count })}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

export function DepositTable({
  rows,
  onOpen,
}: {
  rows: readonly DepositRecord[]
  /** Absent in the offline review: its records are read-only and have no page of their own. */
  onOpen?: (localId: string) => void
}): React.JSX.Element {
  const { t } = useTranslation('deposits')
  return (
    <table className="data" data-testid="deposits-table">
      <thead>
        <tr>
          <th scope="col">{t('list.createdAt')}</th>
          <th scope="col">{t('list.status')}</th>
          <th scope="col" className="num">
            {t('list.amount')}
          </th>
          <th scope="col">{t('list.origin')}</th>
          {onOpen && (
            <th scope="col">
              <span className="visually-hidden">{t('list.open')}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.localId} data-local-id={r.localId} data-testid="deposit-row">
            <td>
              <DateTime iso={r.createdAt} />
            </td>
            <td>
              <DepositStatusBadge record={r} />
              {r.flags.some((f) => (DEPOSIT_ATTENTION_FLAGS as readonly string[]).includes(f)) && (
                <strong className="field-error" data-testid="deposit-needs-action">
                  {' '}
                  {t('list.needsAction')}
                </strong>
              )}
            </td>
            <td className="num">
              <Brl cents={r.valueCents ?? r.amountCents} />
            </td>
            <td data-origin={r.origin}>{r.origin === 'imported' ? t('list.outside') : t('list.ours')}</td>
            {onOpen && (
              <td>
                <button type="button" className="btn btn-small" onClick={() => onOpen(r.localId)}>
                  {t('list.open')}
                </button>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
