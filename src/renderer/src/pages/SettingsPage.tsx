/**
 * Configurações in tabs (issue #26): profiles, session, team ledger and language first (what a desk sets up once);
 * payments and notices (default refund address, desktop notifications); security and limits (request allowances,
 * the export signing key, ledger backups). The open tab survives a visit to another page.
 */
import { useTranslation } from 'react-i18next'
import { create } from 'zustand'
import { DefaultRefundSection } from '../components/payees/DefaultRefundSection'
import { AllowancesSection } from '../components/settings/AllowancesSection'
import { BackupsSection } from '../components/settings/BackupsSection'
import { LanguageSection } from '../components/settings/LanguageSection'
import { NotificationsSection } from '../components/settings/NotificationsSection'
import { ProfilesSection } from '../components/settings/ProfilesSection'
import { SessionSection } from '../components/settings/SessionSection'
import { SigningKeySection } from '../components/settings/SigningKeySection'
import { TeamLedgerSection } from '../components/settings/TeamLedgerSection'
import { PageHeader } from '../components/ui/PageHeader'
import { Tabs } from '../components/ui/Tabs'
import { DeskLimitSection } from '../components/settings/DeskLimitSection'

export const SETTINGS_TABS = ['profiles', 'payments', 'security'] as const
export type SettingsTab = (typeof SETTINGS_TABS)[number]

export const useSettingsTab = create<{ tab: SettingsTab; set: (tab: SettingsTab) => void }>((set) => ({
  tab: 'profiles',
  set: (tab) => set({ tab }),
}))

export function SettingsPage(): React.JSX.Element {
  const { t } = useTranslation('settings')
  const tab = useSettingsTab((s) => s.tab)
  const setTab = useSettingsTab((s) => s.set)
  return (
    <div className="page">
      <PageHeader title={t('title')} />
      <Tabs
        label={t('tabs.label')}
        value={tab}
        onChange={(id) => setTab(id as SettingsTab)}
        items={[
          {
            id: 'profiles',
            label: t('tabs.profiles'),
            panel: () => (
              <>
                <SessionSection />
                <ProfilesSection />
                <TeamLedgerSection />
                <LanguageSection />
              </>
            ),
          },
          {
            id: 'payments',
            label: t('tabs.payments'),
            panel: () => (
              <>
                <DefaultRefundSection />
                <NotificationsSection />
              </>
            ),
          },
          {
            id: 'security',
            label: t('tabs.security'),
            panel: () => (
              <>
                <DeskLimitSection />
                <AllowancesSection />
                <SigningKeySection />
                <BackupsSection />
              </>
            ),
          },
        ]}
      />
    </div>
  )
}
