/** Who the app is signed in as on the active profile, until when, and loud warnings when something is off. */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError, SessionView } from '../../../../shared/contract'
import { call } from '../../ipc'
import { useApp } from '../../stores/app'
import { ErrorNotice } from '../ErrorNotice'
import { DateTime } from '../format'
import { legacyExpiry } from './logic'
import { useNow } from './useNow'

export function SessionSection(): React.JSX.Element {
  const { t } = useTranslation('settings')
  const { session, setSession } = useApp()
  const [failure, setFailure] = useState<IpcError | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    void call('session:get').then((r) => r.ok && setSession(r.data))
  }, [setSession])

  const run = async (action: 'session:signIn' | 'session:signOut'): Promise<void> => {
    setBusy(true)
    setFailure(null)
    const r = await call(action)
    setBusy(false)
    if (r.ok) setSession(r.data)
    else setFailure(r.error)
  }

  return (
    <section aria-labelledby="settings-session" className="card" data-testid="session">
      <h3 id="settings-session">{t('session.title')}</h3>
      {session ? <SessionFacts session={session} /> : <p>{t('session.signedOut')}</p>}
      {failure && <ErrorNotice error={failure} />}
      <div className="actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy}
          onClick={() => void run('session:signIn')}
        >
          {session ? t('session.renew') : t('session.signIn')}
        </button>
        {session && (
          <button type="button" className="btn" disabled={busy} onClick={() => void run('session:signOut')}>
            {t('session.signOut')}
          </button>
        )}
      </div>
    </section>
  )
}

function SessionFacts({ session }: { session: SessionView }): React.JSX.Element {
  const { t } = useTranslation('settings')
  return (
    <>
      {session.envWarning && (
        <div className="alert alert-error" role="alert" data-testid="env-warning">
          <p className="alert-title">{t(`session.envWarning.${session.envWarning}.title`)}</p>
          <p>{t(`session.envWarning.${session.envWarning}.body`)}</p>
        </div>
      )}
      <p>
        {t('session.signedInAs')}{' '}
        <strong data-testid="session-sub">{session.sub ?? t('session.noSub')}</strong>
      </p>
      <dl>
        <dt>{t('session.kind')}</dt>
        <dd data-testid="session-kind">{t(`session.kinds.${session.kind}`)}</dd>
        <dt>{t('session.scopes')}</dt>
        <dd data-testid="session-scopes">
          {session.scopes.length > 0 ? (
            <ul className="inline-list">
              {session.scopes.map((s) => (
                <li key={s} data-scope={s} title={s}>
                  {t(`session.scopeNames.${s}`, { defaultValue: t('session.scopeUnknown', { code: s }) })}
                </li>
              ))}
            </ul>
          ) : (
            t('session.noScopes')
          )}
        </dd>
        <dt>{t('session.env')}</dt>
        <dd data-testid="session-env">{session.env ? <code>{session.env}</code> : t('session.noEnv')}</dd>
        <dt>{session.kind === 'legacy_token' ? t('session.tokenExpires') : t('session.accessExpires')}</dt>
        <dd data-testid="session-expiry">
          <DateTime iso={session.accessExpiresAt} />
          {session.kind === 'client_credentials' && (
            <span className="field-hint"> {t('session.autoRenew')}</span>
          )}
        </dd>
      </dl>
      {session.kind === 'legacy_token' && <LegacyExpiryWarning expiresAt={session.accessExpiresAt} />}
    </>
  )
}

function LegacyExpiryWarning({ expiresAt }: { expiresAt: string | null }): React.JSX.Element | null {
  const { t } = useTranslation('settings')
  const state = legacyExpiry(expiresAt, useNow())
  if (state.level === 'ok') return null
  return (
    <p className={state.level === 'expired' ? 'alert alert-error' : 'alert alert-warn'} role="alert">
      {state.level === 'expired'
        ? t('session.legacyExpired')
        : state.days === 0
          ? t('session.legacyToday')
          : t('session.legacySoon', { count: state.days })}
    </p>
  )
}
