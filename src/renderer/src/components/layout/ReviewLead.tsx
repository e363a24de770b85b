/** The review's lead sentence, from main's quote: pay R$ payout to payee — send exact DePix; fee below. */
import { Trans, useTranslation } from 'react-i18next'
import type { WithdrawalQuote } from '../../../../shared/contract'
import { formatBRL, formatDePix } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { LeadBox } from './LeadSentence'
import { payeeOfRequest, payeeText } from './payee'

export function ReviewLead({ quote }: { quote: WithdrawalQuote }): React.JSX.Element {
  const { t } = useTranslation('layout')
  const lang = currentLanguage()
  const values = {
    payout: formatBRL(quote.payoutCents, lang),
    // The book entry's name when the payee was picked from Favorecidos; the key otherwise.
    payee: payeeText(payeeOfRequest(quote.request, quote.payee?.name ?? null)),
    deposit: formatDePix(quote.depositCents, lang),
  }
  return (
    <LeadBox
      tone="pending"
      sentence={<Trans t={t} i18nKey="lead.review" values={values} components={{ b: <strong /> }} />}
      facts={[
        { label: t('lead.payout'), value: values.payout, testId: 'lead-payout' },
        { label: t('lead.deposit'), value: values.deposit, testId: 'lead-deposit' },
        { label: t('lead.fee'), value: formatBRL(quote.feeCents, lang), testId: 'lead-fee' },
      ]}
    />
  )
}
