/**
 * Where and how much to send. Only ever rendered with instructions main built after checking the deposit
 * address as a Liquid address of the profile's network; the address, amount and URI each have a copy button.
 * The address is shown in groups of four on at most a few lines (never a one-character column); the copy
 * button copies it whole. The asset id is for support: the page shows it under "Detalhes técnicos".
 */
import { useTranslation } from 'react-i18next'
import type { FundingInstructions as Funding } from '../../../../shared/contract'
import { formatBRL, formatDePix } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { CopyButton } from '../CopyButton'
import { ExpirationCountdown } from './Countdown'
import { svgDataUri } from './funding-model'
import { ToleranceRule } from './ToleranceRule'

/** Groups of 4 characters as spans: the text content stays the exact address (selecting it copies no spaces). */
export function AddressGroups({ address, testId }: { address: string; testId?: string }): React.JSX.Element {
  const groups = address.match(/.{1,4}/g) ?? []
  return (
    <code className="mono address-groups" data-testid={testId}>
      {groups.map((g, i) => (
        <span key={i}>{g}</span>
      ))}
    </code>
  )
}

export function FundingInstructions({
  funding,
  addressNotice,
}: {
  funding: Funding
  /** Said right under the address (the Sandbox's "this address belongs to no one"). */
  addressNotice?: React.ReactNode
}): React.JSX.Element {
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
            <AddressGroups address={funding.address} testId="deposit-address" />
            <div className="copy-row">
              <CopyButton text={funding.address} label={t('instructions.copyAddress')} />{' '}
              <span className="field-hint">
                {t(funding.confidential ? 'instructions.confidential' : 'instructions.unconfidential')}
              </span>
            </div>
            {addressNotice}
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
          <dt>{t('instructions.expiration')}</dt>
          <dd>
            <ExpirationCountdown expiration={funding.expiration} />
          </dd>
        </dl>
        <figure className="qr">
          <img
            src={svgDataUri(funding.qrSvg)}
            alt={t('instructions.qrAlt', { amount: formatDePix(funding.cents, lang) })}
            width={200}
            height={200}
            data-testid="funding-qr"
          />
          <figcaption className="field-hint">{t('instructions.qrCaption')}</figcaption>
        </figure>
      </div>
      <p className="uri-label">{t('instructions.uri')}</p>
      <p className="uri-row">
        <code className="mono uri" data-testid="funding-uri">
          {funding.uri}
        </code>{' '}
        <CopyButton text={funding.uri} label={t('instructions.copyUri')} />
      </p>
      <ToleranceRule cents={funding.cents} toleranceBps={funding.toleranceBps} />
    </section>
  )
}
