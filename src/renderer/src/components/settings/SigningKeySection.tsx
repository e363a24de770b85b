/**
 * The export signing key's fingerprint, for comparing out of band (phone, paper) with what a reviewer sees when
 * opening an export: a match proves the files came from this installation.
 */
import { useTranslation } from 'react-i18next'
import { CopyButton } from '../CopyButton'
import { ErrorNotice } from '../ErrorNotice'
import { groupFingerprint } from './logic'
import { useSigningKey } from './useSigningKey'

export function SigningKeySection(): React.JSX.Element {
  const { t } = useTranslation('settings')
  const { key, error } = useSigningKey()
  return (
    <section aria-labelledby="settings-signing-key" className="card">
      <h3 id="settings-signing-key">{t('signingKey.title')}</h3>
      <p className="field-hint">{t('signingKey.intro')}</p>
      {error && <ErrorNotice error={error} />}
      {key && (
        <>
          <p>
            {t('signingKey.fingerprint')}:{' '}
            <code className="mono fingerprint" data-testid="signing-fingerprint">
              {groupFingerprint(key.fingerprint)}
            </code>{' '}
            <CopyButton text={key.fingerprint} label={t('signingKey.copy')} />
          </p>
          <details>
            <summary>{t('signingKey.pem')}</summary>
            <pre className="mono pem" data-testid="signing-pem">
              {key.publicKeyPem}
            </pre>
          </details>
        </>
      )}
    </section>
  )
}
