/**
 * Caixa on "Hoje" (issue #27): the treasury's DePix in R$ and the age of the last network read. No scan from here
 * (main scans on its schedule); a profile without a wallet shows nothing.
 */
import { useTranslation } from 'react-i18next'
import { formatBRL } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { useRoute } from '../../stores/route'
import { CanFund } from './CanFund'
import { ScanAge, useWalletView } from './wallet-view'

export function CaixaCard(): React.JSX.Element | null {
  const { t } = useTranslation('wallet')
  const go = useRoute((s) => s.go)
  const { view } = useWalletView(false)
  if (view?.state !== 'ready') return null
  const lang = currentLanguage()
  return (
    <section className="card today-block today-caixa" aria-labelledby="today-caixa" data-testid="today-caixa">
      <h3 id="today-caixa">{t('card')}</h3>
      <p className="num big" data-testid="today-caixa-depix">
        {formatBRL(view.depix.confirmedCents, lang)}
      </p>
      {view.depix.pendingCents !== 0 && (
        <p>
          {t('pending')}: <span className="num">{formatBRL(view.depix.pendingCents, lang)}</span>
        </p>
      )}
      <ScanAge view={view} />
      <CanFund view={view} />
      <button type="button" className="btn" onClick={() => go({ page: 'caixa' })}>
        {t('cardOpen')}
      </button>
    </section>
  )
}
