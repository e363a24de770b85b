/** The ±5% rule (docs/API-CONTRACT.md#s3-2, §6.4) in plain words, with the actual amounts of this withdrawal. */
import { useTranslation } from 'react-i18next'
import { WITHDRAWAL_MAX_CENTS, WITHDRAWAL_MIN_CENTS } from '../../../../shared/api-limits'
import { formatBRL, formatDePix } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { formatBps, fundingToleranceRange } from '../../../../shared/fees'

export function ToleranceRule({
  cents,
  toleranceBps,
}: {
  cents: number
  toleranceBps: number
}): React.JSX.Element {
  const { t } = useTranslation('funding')
  const lang = currentLanguage()
  const { min, max } = fundingToleranceRange(cents, toleranceBps)
  const pct = formatBps(toleranceBps, lang)
  return (
    <section aria-labelledby="tolerance-heading" className="tolerance">
      <h3 id="tolerance-heading">{t('tolerance.heading', { pct })}</h3>
      <ul data-testid="tolerance-rule">
        <li>{t('tolerance.exact', { amount: formatDePix(cents, lang) })}</li>
        <li>
          {t('tolerance.within', {
            pct,
            min: formatDePix(min, lang),
            max: formatDePix(max, lang),
            lo: formatBRL(WITHDRAWAL_MIN_CENTS, lang),
            hi: formatBRL(WITHDRAWAL_MAX_CENTS, lang),
          })}
        </li>
        <li>{t('tolerance.beyond', { pct })}</li>
        <li>{t('tolerance.failure')}</li>
        <li>{t('tolerance.late')}</li>
      </ul>
    </section>
  )
}
