/** The top bar's team line: shown only on a team ledger; amber when this desk lost the connection. */
import { useTranslation } from 'react-i18next'
import { useTeam } from '../../stores/team'
import { teamIndicator } from './approval-model'

export function TeamStatusLine(): React.JSX.Element | null {
  const { t } = useTranslation('approvals')
  const status = useTeam((s) => s.status)
  const state = teamIndicator(status)
  if (state === 'none' || !status) return null
  return (
    <span
      className={`team-chip ${state === 'disconnected' ? 'team-chip-off' : 'team-chip-on'}`}
      role="status"
      data-testid="team-status"
      data-state={state}
    >
      {t('team.label')} —{' '}
      {state === 'disconnected'
        ? t('team.disconnected')
        : t('team.connected', { identity: status.identity ?? '' })}
      {state === 'leader' && <> · {t('team.leader')}</>}
    </span>
  )
}
