/** The profiles, Sandbox first, with what each row allows: use it; for live ones also edit, credentials, remove. */
import { useTranslation } from 'react-i18next'
import type { PublicProfile } from '../../../../shared/profile'

export type ProfileAction = 'select' | 'edit' | 'credentials' | 'remove'

export function sortProfiles(profiles: readonly PublicProfile[]): PublicProfile[] {
  return [...profiles].sort((a, b) => Number(b.kind === 'sandbox') - Number(a.kind === 'sandbox'))
}

export function ProfileTable({
  profiles,
  activeId,
  busy,
  onAction,
}: {
  profiles: readonly PublicProfile[]
  activeId: string
  busy: boolean
  onAction: (action: ProfileAction, profile: PublicProfile, opener: HTMLElement) => void
}): React.JSX.Element {
  const { t } = useTranslation('settings')
  return (
    <div className="table-scroll">
      <table className="data" data-testid="profiles-table">
        <caption className="visually-hidden">{t('profiles.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('profile.name')}</th>
            <th scope="col">{t('profile.kind')}</th>
            <th scope="col">{t('profile.baseUrl')}</th>
            <th scope="col">{t('profile.network')}</th>
            <th scope="col">{t('profile.access')}</th>
            <th scope="col">{t('profile.secret')}</th>
            <th scope="col">{t('profile.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {sortProfiles(profiles).map((p) => {
            const active = p.id === activeId
            const live = p.kind === 'live'
            return (
              <tr key={p.id} data-profile-id={p.id} aria-current={active ? 'true' : undefined}>
                <th scope="row">
                  {p.name}
                  {active && <span className="badge badge-active">{t('profiles.active')}</span>}
                </th>
                <td>{t(`kind.${p.kind}`)}</td>
                <td className="mono">{p.baseUrl}</td>
                <td>{t(`network.${p.network}`)}</td>
                <td>
                  {p.auth.kind === 'client_credentials' ? (
                    <>
                      {t('credentials.clientCredentials')}
                      <br />
                      <span className="mono">{p.auth.clientId}</span>
                    </>
                  ) : (
                    t('credentials.legacyToken')
                  )}
                </td>
                <td data-testid="has-secret" data-has-secret={p.hasSecret}>
                  {p.hasSecret ? t('profiles.secretSaved') : <strong>{t('profiles.secretMissing')}</strong>}
                </td>
                <td>
                  <div className="row-actions">
                    {!active && (
                      <button
                        type="button"
                        className="btn btn-small"
                        disabled={busy}
                        onClick={(e) => onAction('select', p, e.currentTarget)}
                        aria-label={t('profiles.selectNamed', { name: p.name })}
                      >
                        {t('profiles.select')}
                      </button>
                    )}
                    {live ? (
                      (['edit', 'credentials', 'remove'] as const).map((action) => (
                        <button
                          key={action}
                          type="button"
                          className={action === 'remove' ? 'btn btn-small btn-danger' : 'btn btn-small'}
                          disabled={busy}
                          onClick={(e) => onAction(action, p, e.currentTarget)}
                          aria-label={t(`profiles.${action}Named`, { name: p.name })}
                        >
                          {t(`profiles.${action}`)}
                        </button>
                      ))
                    ) : (
                      <span className="field-hint">{t('profiles.builtIn')}</span>
                    )}
                  </div>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
