/**
 * Where and how much to send. Only ever rendered with instructions main built after checking the deposit
 * address as a Liquid address of the profile's network; the address, amount and URI each have a copy button.
 */
import { useTranslation } from 'react-i18next'
import type { FundingInstructions as Funding } from '../../../../shared/contract'
import { formatBRL, formatDePix } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { CopyButton } from '../CopyButton'
import { ExpirationCountdown } from './Countdown'
import { svgDataUri } from './funding-model'
import { ToleranceRule } from './ToleranceRule'

export function FundingInstructions({ funding }: { funding: Funding }): React.JSX.Element {
  const { t, i18n } = useTranslation('funding')
  const lang = currentLanguage()
  const network = i18n.exists(`funding:networks.${funding.network}`)
    ? t(`networks.${funding.network}`)
    : funding.network

  return (
    <section
      aria-labelledby="instructions-heading"
      className="card funding-instructions"
      data-testid="funding"
    >
      <h3 id="instructions-heading">{t('instructions.heading')}</h3>
      <div className="funding-grid">
        <dl>
          <dt>{t('instructions.address', { network })}</dt>
          <dd>
            <code className="mono address" data-testid="deposit-address">
              {funding.address}
            </code>{' '}
            <CopyButton text={funding.address} label={t('instructions.copyAddress')} />
            <br />
            <span className="field-hint">
              {t(funding.confidential ? 'instructions.confidential' : 'instructions.unconfidential')}
            </span>
          </dd>
          <dt>{t('instructions.amount')}</dt>
          <dd>
            <strong className="mono amount" data-testid="depix-amount">
              {formatDePix(funding.cents, lang)}
            </strong>{' '}
            <CopyButton
              text={funding.depixAmount}
              label={t('instructions.copyAmount')}
              note={t('instructions.copyAmountNote', { amount: funding.depixAmount })}
            />
            <br />
            <span className="field-hint">
              {t('instructions.brl', { brl: formatBRL(funding.cents, lang) })}
            </span>
          </dd>
          <dt>{t('instructions.asset')}</dt>
          <dd>
            <code className="mono">{funding.assetId}</code>
          </dd>
          <dt>{t('instructions.expiration')}</dt>
          <dd>
            <ExpirationCountdown expiration={funding.expiration} />
          </dd>
        </dl>
        <figure className="qr">
          <img
            src={svgDataUri(funding.qrSvg)}
            alt={t('instructions.qrAlt', { amount: formatDePix(funding.cents, lang) })}
            width={220}
            height={220}
            data-testid="funding-qr"
          />
          <figcaption className="field-hint">{t('instructions.qrCaption')}</figcaption>
        </figure>
      </div>
      <p className="uri-label">{t('instructions.uri')}</p>
      <p>
        <code className="mono" data-testid="funding-uri">
          {funding.uri}
        </code>{' '}
        <CopyButton text={funding.uri} label={t('instructions.copyUri')} />
      </p>
      <ToleranceRule cents={funding.cents} toleranceBps={funding.toleranceBps} />
    </section>
  )
}
