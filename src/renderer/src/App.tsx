import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { AppInfo, IpcError } from '../../shared/contract'
import { LANGUAGES, type Language } from './i18n'

type Page = 'newWithdrawal' | 'withdrawals' | 'records' | 'settings'
const PAGES: Page[] = ['newWithdrawal', 'withdrawals', 'records', 'settings']

export function App(): React.JSX.Element {
  const { t, i18n } = useTranslation()
  const [page, setPage] = useState<Page>('newWithdrawal')
  const [info, setInfo] = useState<AppInfo | null>(null)
  const [error, setError] = useState<IpcError | null>(null)

  useEffect(() => {
    let live = true
    void window.treasury.invoke('app:info').then((r) => {
      if (!live) return
      if (r.ok) setInfo(r.data)
      else setError(r.error)
    })
    return () => {
      live = false
    }
  }, [])

  useEffect(() => {
    document.documentElement.lang = i18n.language
  }, [i18n.language])

  return (
    <div className="layout">
      {info?.sandbox && (
        <div className="banner banner-sandbox" role="status">
          {t('app.sandboxBanner')}
        </div>
      )}
      <header className="topbar">
        <h1>{t('app.title')}</h1>
        <label className="lang">
          {t('language.label')}{' '}
          <select
            value={i18n.language}
            onChange={(e) => void i18n.changeLanguage(e.target.value as Language)}
          >
            {LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {t(`language.${l}`)}
              </option>
            ))}
          </select>
        </label>
      </header>
      <div className="body">
        <nav aria-label={t('nav.label')} className="sidenav">
          <ul>
            {PAGES.map((p) => (
              <li key={p}>
                <button
                  type="button"
                  aria-current={page === p ? 'page' : undefined}
                  onClick={() => setPage(p)}
                >
                  {t(`nav.${p}`)}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <main className="content">
          <h2>{t(`nav.${page}`)}</h2>
          <p>{t('placeholder')}</p>
          <section aria-labelledby="about-heading" className="card">
            <h3 id="about-heading">{t('about.heading')}</h3>
            {error && <p role="alert">{t('about.failed', { code: error.code })}</p>}
            {!info && !error && <p>{t('app.loading')}</p>}
            {info && (
              <dl data-testid="app-info">
                <dt>{t('about.version')}</dt>
                <dd>
                  {info.name} {info.version}
                </dd>
                <dt>{t('about.platform')}</dt>
                <dd>{info.platform}</dd>
                <dt>{t('about.profile')}</dt>
                <dd>{info.sandbox ? t('about.sandbox') : t('about.live')}</dd>
              </dl>
            )}
          </section>
        </main>
      </div>
    </div>
  )
}
