/**
 * The top bar's team line: shown only on a team ledger; amber when this desk lost the connection, with why (main's
 * `reason`, a connection-test verdict, in the same words "Testar conexão" uses). A computer whose clock is more
 * than a minute off the team server's is told so beside it.
 */
import { useTranslation } from 'react-i18next'
import { useTeam } from '../../stores/team'
import { teamIndicator, teamReasonText } from './approval-model'
import { clockSkewNotice } from './team-clock'

export function TeamStatusLine(): React.JSX.Element | null {
  const { t, i18n } = useTranslation('approvals')
  const status = useTeam((s) => s.status)
  const state = teamIndicator(status)
  if (state === 'none' || !status) return null
  const reason =
    state === 'disconnected' ? teamReasonText(status, i18n.language === 'en' ? 'en' : 'pt-BR') : null
  const skew = clockSkewNotice(status)
  // A connected line is cut to one row in the top bar: its whole text on hover.
  const whole =
    state === 'disconnected'
      ? undefined
      : `${t('team.label')} — ${t('team.connected', { identity: status.identity ?? '' })}${
          state === 'leader' ? ` · ${t('team.leader')}` : ''
        }`
  return (
    <>
      <span
        className={`team-chip ${state === 'disconnected' ? 'team-chip-off' : 'team-chip-on'}`}
        role="status"
        data-testid="team-status"
        data-state={state}
        title={whole}
      >
        {t('team.label')} —{' '}
        {state === 'disconnected'
          ? t('team.disconnected')
          : t('team.connected', { identity: status.identity ?? '' })}
        {state === 'leader' && <> · {t('team.leader')}</>}
        {reason && (
          <>
            {' · '}
            <span data-testid="team-status-reason">{reason}</span>
          </>
        )}
      </span>
      {skew && (
        <span className="team-chip team-chip-off" role="status" data-testid="clock-skew">
          {t(skew.direction === 'ahead' ? 'team.clockAhead' : 'team.clockBehind', { amount: skew.amount })}
        </span>
      )}
    </>
  )
}
