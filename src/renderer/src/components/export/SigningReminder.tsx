/** Which key will sign the export: the fingerprint a reviewer should compare out of band. */
import { useTranslation } from 'react-i18next'
import { useRoute } from '../../stores/route'
import { ErrorNotice } from '../ErrorNotice'
import { groupFingerprint } from '../settings/logic'
import { useSigningKey } from '../settings/useSigningKey'

export function SigningReminder(): React.JSX.Element {
  const { t } = useTranslation('records')
  const go = useRoute((s) => s.go)
  const { key, error } = useSigningKey()
  if (error) return <ErrorNotice error={error} />
  return (
    <div className="alert alert-info" data-testid="export-signing">
      <p>
        {t('signing.intro')}{' '}
        {key ? (
          <code className="mono fingerprint">{groupFingerprint(key.fingerprint)}</code>
        ) : (
          t('common:app.loading')
        )}
      </p>
      <p>
        {t('signing.compare')}{' '}
        <button type="button" className="btn-link" onClick={() => go({ page: 'settings' })}>
          {t('signing.settings')}
        </button>
      </p>
    </div>
  )
}
