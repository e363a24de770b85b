/**
 * Totals by meaning (paid, open, returned…, fees), then count and sums per display status (main's `totals`).
 * The per-status table has a grand count but no grand amount: adding amounts across statuses mixes paid money
 * with pending and returned money.
 */
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { StatusTotal } from '../../../../shared/withdrawal-record'
import { LOCAL_STATES } from '../../../../shared/withdrawal-record'
import { currentLanguage } from '../../i18n'
import { Brl } from '../format'
import { StatusBadge } from '../StatusBadge'
import { MeaningTotals } from './MeaningTotals'

/** A total's `status` is the normalised remote status of a created record, otherwise the local state. */
export function badgePropsOfTotal(t: StatusTotal): {
  status: string | null
  localState: string
  hasRefund: boolean
} {
  const local = (LOCAL_STATES as readonly string[]).includes(t.status) && t.status !== 'created'
  return local
    ? { status: null, localState: t.status, hasRefund: t.hasRefund }
    : { status: t.status, localState: 'created', hasRefund: t.hasRefund }
}

export function sumTotals(totals: readonly StatusTotal[]): {
  count: number
  depositCents: number
  payoutCents: number
} {
  return totals.reduce(
    (a, t) => ({
      count: a.count + t.count,
      depositCents: a.depositCents + t.depositCents,
      payoutCents: a.payoutCents + t.payoutCents,
    }),
    { count: 0, depositCents: 0, payoutCents: 0 },
  )
}

/** Which dates the totals cover: no range, or a range on the creation or on the payout date. */
export type TotalsPeriod = 'all' | 'created' | 'paid'

export function StatusTotals({
  totals,
  period = 'all',
}: {
  totals: readonly StatusTotal[]
  period?: TotalsPeriod
}): React.JSX.Element {
  const { t } = useTranslation('list')
  const count = new Intl.NumberFormat(currentLanguage()).format
  const id = useId()
  const all = sumTotals(totals)
  return (
    <section className="status-totals" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{t('totals.heading')}</h3>
      {totals.length === 0 ? (
        <p>{t('totals.none')}</p>
      ) : (
        <>
          <MeaningTotals totals={totals} />
          <table className="data totals-table" data-testid="status-totals">
            <caption className="visually-hidden">{t('totals.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('totals.status')}</th>
                <th scope="col" className="num-col">
                  {t('totals.count')}
                </th>
                <th scope="col" className="num-col">
                  {t('totals.deposit')}
                </th>
                <th scope="col" className="num-col">
                  {t('totals.payout')}
                </th>
              </tr>
            </thead>
            <tbody>
              {totals.map((row) => (
                <tr key={`${row.status}|${row.hasRefund}`} data-status={row.status}>
                  <th scope="row">
                    <StatusBadge {...badgePropsOfTotal(row)} />
                  </th>
                  <td className="num-col num" data-testid="total-count">
                    {count(row.count)}
                  </td>
                  <td className="num-col">
                    <Brl cents={row.depositCents} />
                  </td>
                  <td className="num-col">
                    <Brl cents={row.payoutCents} />
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">{t('totals.all')}</th>
                <td className="num-col num" data-testid="total-all-count">
                  {count(all.count)}
                </td>
                <td className="num-col" />
                <td className="num-col" />
              </tr>
            </tfoot>
          </table>
        </>
      )}
      <p className="field-hint" data-testid="totals-period">
        {t(`totals.period.${period}`)} {t('totals.note')}
      </p>
    </section>
  )
}
