/**
 * Totals by meaning (shared/money-totals.ts): what was paid, what is open, what came back, what ended unpaid,
 * and the fees. The line a treasury analyst reconciles; a sum over every status would count pending and
 * refunded records as paid.
 */
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { MEANINGS, meaningTotals } from '../../../../shared/money-totals'
import type { StatusTotal } from '../../../../shared/withdrawal-record'
import { currentLanguage } from '../../i18n'
import { Brl } from '../format'

export function MeaningTotals({ totals }: { totals: readonly StatusTotal[] }): React.JSX.Element {
  const { t } = useTranslation('list')
  const count = new Intl.NumberFormat(currentLanguage()).format
  const id = useId()
  const m = meaningTotals(totals)
  const shown = MEANINGS.filter((k) => k !== 'other' || m.other.count > 0)
  return (
    <section className="meaning-totals" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{t('totals.meaningHeading')}</h3>
      <table className="data totals-table" data-testid="meaning-totals">
        <caption className="visually-hidden">{t('totals.meaningCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('totals.meaning')}</th>
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
          {shown.map((k) => (
            <tr key={k} data-meaning={k}>
              <th scope="row">{t(`totals.meanings.${k}`)}</th>
              <td className="num-col num">{count(m[k].count)}</td>
              <td className="num-col">
                <Brl cents={m[k].depositCents} />
              </td>
              <td className="num-col" data-testid={`meaning-payout-${k}`}>
                <Brl cents={m[k].payoutCents} />
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              {t('totals.feesPaid')}
            </th>
            <td className="num-col" data-testid="fees-paid">
              <Brl cents={m.feesPaidCents} />
            </td>
          </tr>
          <tr>
            <th scope="row" colSpan={3}>
              {t('totals.feesWithheld')}
            </th>
            <td className="num-col" data-testid="fees-withheld">
              {m.feesWithheldCents === null ? t('totals.notRecorded') : <Brl cents={m.feesWithheldCents} />}
            </td>
          </tr>
        </tfoot>
      </table>
      <p className="field-hint">{t('totals.paidNote')}</p>
    </section>
  )
}
