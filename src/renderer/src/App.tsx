/** The shell: environment banner (Sandbox, or production with real money), top bar, navigation, the page. */
import { lazy, Suspense, useEffect, useState } from 'react'
import type { EventPayload } from '../../shared/contract'
import { useTranslation } from 'react-i18next'
import { IntegrityBanner } from './components/IntegrityBanner'
import { ApprovalToast } from './components/approvals/ApprovalToast'
import { ProfileSwitcher } from './components/layout/ProfileSwitcher'
import { queueCount } from './components/approvals/run-approval-model'
import { TeamStatusLine } from './components/approvals/TeamStatusLine'
import { useTeamSync } from './components/approvals/useTeamSync'
import { call, useEvent } from './ipc'
import { LANGUAGES, type Language } from './i18n'
import { PageLoading } from './components/ui/PageLoading'
import { TodayPage } from './pages/TodayPage'
import { WithdrawalsPage } from './pages/WithdrawalsPage'
import { useApp } from './stores/app'
import { NAV_PAGES, useRoute, type NavPage, type Route } from './stores/route'
import { useTeam } from './stores/team'

// Pages an analyst opens now and then load on first visit: the first screen's script stays small (#6 budget).
const ApprovalsPage = lazy(() => import('./pages/ApprovalsPage').then((m) => ({ default: m.ApprovalsPage })))
const BuyDepixPage = lazy(() => import('./pages/BuyDepixPage').then((m) => ({ default: m.BuyDepixPage })))
const DepositDetailPage = lazy(() =>
  import('./pages/DepositDetailPage').then((m) => ({ default: m.DepositDetailPage })),
)
const CaixaPage = lazy(() => import('./pages/CaixaPage').then((m) => ({ default: m.CaixaPage })))
const DepositsPage = lazy(() => import('./pages/DepositsPage').then((m) => ({ default: m.DepositsPage })))
const PayeesPage = lazy(() => import('./pages/PayeesPage').then((m) => ({ default: m.PayeesPage })))
const RunsPage = lazy(() => import('./pages/RunsPage').then((m) => ({ default: m.RunsPage })))
// Configurações and the offline review are visited rarely and are large (issue #26: room for the top bar's
// profile switcher within the budget).
const RecordsPage = lazy(() => import('./pages/RecordsPage').then((m) => ({ default: m.RecordsPage })))
const ReviewPage = lazy(() => import('./pages/ReviewPage').then((m) => ({ default: m.ReviewPage })))
const SettingsPage = lazy(() => import('./pages/SettingsPage').then((m) => ({ default: m.SettingsPage })))
const SandboxToolsPage = lazy(() =>
  import('./pages/SandboxToolsPage').then((m) => ({ default: m.SandboxToolsPage })),
)
// The payment form (react-hook-form, the payee picker, the review step), its funding page and the detail are
// reached from Hoje or the list, never the first screen: they load on first visit too (initial JS ≤ 300,000 B).
const NewWithdrawalPage = lazy(() =>
  import('./pages/NewWithdrawalPage').then((m) => ({ default: m.NewWithdrawalPage })),
)
const FundingPage = lazy(() => import('./pages/FundingPage').then((m) => ({ default: m.FundingPage })))
const WithdrawalDetailPage = lazy(() =>
  import('./pages/WithdrawalDetailPage').then((m) => ({ default: m.WithdrawalDetailPage })),
)

function navPageOf(route: Route): NavPage {
  if (route.page === 'funding') return 'newWithdrawal'
  if (route.page === 'detail') return 'withdrawals'
  if (route.page === 'depositDetail') return 'deposits'
  return route.page
}

function CurrentPage({ route }: { route: Route }): React.JSX.Element {
  switch (route.page) {
    case 'today':
      return <TodayPage />
    case 'caixa':
      return <CaixaPage />
    case 'newWithdrawal':
      return <NewWithdrawalPage />
    case 'funding':
      return <FundingPage localId={route.localId} />
    case 'withdrawals':
      return <WithdrawalsPage />
    case 'approvals':
      return <ApprovalsPage />
    case 'detail':
      return <WithdrawalDetailPage localId={route.localId} />
    case 'payees':
      return <PayeesPage />
    case 'runs':
      // A run opened from the approvals queue or a notification: a new page, with that run open.
      return <RunsPage key={route.runId ?? ''} runId={route.runId} />
    case 'records':
      return <RecordsPage />
    case 'review':
      return <ReviewPage />
    case 'settings':
      return <SettingsPage />
    case 'sandbox':
      return <SandboxToolsPage />
    case 'buyDepix':
      return <BuyDepixPage />
    case 'deposits':
      return <DepositsPage />
    case 'depositDetail':
      return <DepositDetailPage localId={route.localId} />
  }
}

/** Which environment this is, on every page: Sandbox in amber, a live profile in red with the words "real money". */
function EnvironmentBanner(): React.JSX.Element | null {
  const { t } = useTranslation(['common', 'layout'])
  const info = useApp((s) => s.info)
  if (!info) return null
  if (info.sandbox) {
    return (
      <div className="banner banner-sandbox" role="status" data-testid="sandbox-banner">
        {t('app.sandboxBanner')}
      </div>
    )
  }
  return (
    <div className="banner banner-live" role="status" data-testid="live-banner">
      <strong>{t('layout:shell.liveBanner')}</strong>
      <span aria-hidden="true"> · </span>
      <span>{t('layout:shell.liveBannerProfile', { profile: info.profileName ?? t('about.live') })}</span>
    </div>
  )
}

export function App(): React.JSX.Element {
  const { t, i18n } = useTranslation(['common', 'layout'])
  const { route, go } = useRoute()
  const { info, infoError, refreshInfo, setSession, setAllowances } = useApp()

  useEffect(() => {
    void refreshInfo()
    void call('settings:get').then((r) => {
      if (r.ok && r.data.language !== i18n.language) void i18n.changeLanguage(r.data.language)
    })
    void call('session:get').then((r) => r.ok && setSession(r.data))
    void call('allowance:get').then((r) => r.ok && setAllowances(r.data))
  }, [refreshInfo, setSession, setAllowances, i18n])

  useEffect(() => {
    document.documentElement.lang = i18n.language
  }, [i18n.language])

  useEvent('session:changed', setSession)
  useEvent('allowance:changed', setAllowances)
  useEvent('profile:changed', () => void refreshInfo())
  // Main holds a profile switch or quit until a create's POST has its answer; say so while it waits.
  const [waiting, setWaiting] = useState<EventPayload<'app:waiting'>>(null)
  useEvent('app:waiting', setWaiting)
  // A clicked desktop notification opens its record.
  useEvent('notification:open', ({ localId }) => go({ page: 'detail', localId }))

  const changeLanguage = (lang: Language): void => {
    void i18n.changeLanguage(lang)
    void call('settings:update', { language: lang })
  }

  // Team ledger (issue #16): its status line, live approval changes and the queue's badge.
  useTeamSync()
  const onTeam = useTeam((s) => s.status?.engine === 'postgres')
  const toAct = useTeam((s) => queueCount(s.approvals, s.runs))

  const pages = NAV_PAGES.filter((p) => (p !== 'sandbox' || info?.sandbox) && (p !== 'approvals' || onTeam))
  const current = navPageOf(route)
  const profile = info ? (info.profileName ?? (info.sandbox ? t('about.sandbox') : t('about.live'))) : null

  return (
    <div className={info && !info.sandbox ? 'layout layout-live' : 'layout'}>
      <EnvironmentBanner />
      {waiting && (
        <div className="banner banner-waiting" role="status" data-testid="waiting-banner">
          {t(`app.waiting.${waiting.action}`)}
        </div>
      )}
      <IntegrityBanner />
      <ApprovalToast />
      <header className="topbar">
        <h1>{t('app.title')}</h1>
        <div className="topbar-facts">
          {info && profile && (
            <span
              className={`profile-chip ${info.sandbox ? 'profile-chip-sandbox' : 'profile-chip-live'}`}
              data-testid="active-profile"
            >
              {t('layout:shell.profileChip', { profile })}{' '}
              <span className="profile-chip-env">
                ({t(info.sandbox ? 'layout:shell.profileSandbox' : 'layout:shell.profileLive')})
              </span>
            </span>
          )}
          {info && profile && <ProfileSwitcher label={profile} />}
          <TeamStatusLine />
          {infoError && <span role="alert">{t('about.failed', { code: infoError.code })}</span>}
          <label className="lang">
            {t('language.label')}{' '}
            <select value={i18n.language} onChange={(e) => changeLanguage(e.target.value as Language)}>
              {LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {t(`language.${l}`)}
                </option>
              ))}
            </select>
          </label>
        </div>
      </header>
      <div className="body">
        <nav aria-label={t('nav.label')} className="sidenav">
          <ul>
            {pages.map((p) => (
              <li key={p}>
                <button
                  type="button"
                  className="sidenav-item"
                  data-testid={`nav-${p}`}
                  aria-current={current === p ? 'page' : undefined}
                  onClick={() => go({ page: p } as Route)}
                >
                  {p === 'today' ? t('layout:today.title') : t(`nav.${p}`)}
                  {p === 'approvals' && toAct > 0 && (
                    <span className="nav-badge" data-testid="approvals-badge">
                      <span aria-hidden="true">{toAct}</span>
                      <span className="visually-hidden">{t('approvals:badge', { count: toAct })}</span>
                    </span>
                  )}
                </button>
              </li>
            ))}
          </ul>
          {info && (
            <p className="sidenav-footer" data-testid="app-info">
              {t('layout:shell.footer', { name: info.name, version: info.version, platform: info.platform })}
            </p>
          )}
        </nav>
        <main className="content" id="main">
          <Suspense fallback={<PageLoading />}>
            <CurrentPage route={route} />
          </Suspense>
        </main>
      </div>
    </div>
  )
}
