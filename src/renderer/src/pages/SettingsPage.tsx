/** Configurações: profiles and the vault, the active profile's team ledger, the session, language, rate-limit allowances, the export signing key. */
import { useTranslation } from 'react-i18next'
import { AllowancesSection } from '../components/settings/AllowancesSection'
import { BackupsSection } from '../components/settings/BackupsSection'
import { DefaultRefundSection } from '../components/payees/DefaultRefundSection'
import { LanguageSection } from '../components/settings/LanguageSection'
import { NotificationsSection } from '../components/settings/NotificationsSection'
import { ProfilesSection } from '../components/settings/ProfilesSection'
import { SessionSection } from '../components/settings/SessionSection'
import { SigningKeySection } from '../components/settings/SigningKeySection'
import { TeamLedgerSection } from '../components/settings/TeamLedgerSection'

export function SettingsPage(): React.JSX.Element {
  const { t } = useTranslation('settings')
  return (
    <div className="page">
      <h2>{t('title')}</h2>
      <SessionSection />
      <ProfilesSection />
      <TeamLedgerSection />
      <DefaultRefundSection />
      <LanguageSection />
      <NotificationsSection />
      <AllowancesSection />
      <SigningKeySection />
      <BackupsSection />
    </div>
  )
}
