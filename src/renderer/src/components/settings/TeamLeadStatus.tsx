/**
 * Configurações → team: which desk tracks the team's payment statuses and how fresh its heartbeat is (the tracker
 * lease, main's `team:status`). A desk silent past its lease is named as such: another desk takes over. Asked
 * again every few seconds while shown.
 */
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useTeam } from '../../stores/team'
import { teamLeadView } from '../approvals/team-clock'

const REFRESH_MS = 5_000

export function TeamLeadStatus(): React.JSX.Element | null {
  const { t } = useTranslation('teamLedger')
  const status = useTeam((s) => s.status)
  const refreshStatus = useTeam((s) => s.refreshStatus)
  useEffect(() => {
    void refreshStatus()
    const timer = setInterval(() => void refreshStatus(), REFRESH_MS)
    return () => clearInterval(timer)
  }, [refreshStatus])
  if (status?.engine !== 'postgres' || !status.connected) return null
  const lead = teamLeadView(status)
  const text = !lead
    ? t('leadNone')
    : lead.lapsed
      ? t('leadLapsed', { holder: lead.holder, age: lead.age })
      : lead.self
        ? t('leadSelf', { age: lead.age })
        : t('leadOther', { holder: lead.holder, age: lead.age })
  return (
    <p data-testid="team-lead" data-lapsed={lead?.lapsed === true ? 'true' : 'false'}>
      <strong>{t('leadTitle')}:</strong> {text}
    </p>
  )
}
