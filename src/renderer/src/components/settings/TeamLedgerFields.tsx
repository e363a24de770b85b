/** The team ledger connection's inputs; the password is never shown back, only whether one is stored. */
import { useTranslation } from 'react-i18next'
import { TEAM_TLS_MODES, type TeamTlsMode } from '../../../../shared/team-ledger'
import { Field } from './Field'
import type { TeamFormField, TeamFormValues } from './team-ledger-form'

export function TeamLedgerFields({
  id,
  values,
  errors,
  hasPassword,
  onChange,
}: {
  id: string
  values: TeamFormValues
  errors: Partial<Record<TeamFormField, string>>
  hasPassword: boolean
  onChange: (field: TeamFormField, value: string) => void
}): React.JSX.Element {
  const { t } = useTranslation('teamLedger')
  const text = (
    field: 'host' | 'port' | 'database' | 'role',
    o: { hint?: string; numeric?: boolean } = {},
  ) => (
    <Field id={`${id}-${field}`} label={t(field)} hint={o.hint} error={errors[field]}>
      {(aria) => (
        <input
          type="text"
          autoComplete="off"
          spellCheck={false}
          {...(o.numeric ? { inputMode: 'numeric' as const } : {})}
          value={values[field]}
          onChange={(e) => onChange(field, e.target.value)}
          {...aria}
        />
      )}
    </Field>
  )
  return (
    <>
      {text('host')}
      {text('port', { numeric: true })}
      {text('database')}
      {text('role', { hint: t('roleHint') })}
      <Field
        id={`${id}-password`}
        label={t('password')}
        hint={hasPassword ? t('passwordStored') : undefined}
        error={errors.password}
      >
        {(aria) => (
          <input
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={(e) => onChange('password', e.target.value)}
            data-testid="team-password"
            {...aria}
          />
        )}
      </Field>
      <Field id={`${id}-tls`} label={t('tls')} error={errors.tls}>
        {(aria) => (
          <select
            value={values.tls}
            onChange={(e) => onChange('tls', e.target.value as TeamTlsMode)}
            {...aria}
          >
            {TEAM_TLS_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {t(`tlsModes.${mode}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id={`${id}-ca`} label={t('ca')} hint={t('caHint')} error={errors.caPem}>
        {(aria) => (
          <textarea
            rows={4}
            spellCheck={false}
            className="mono"
            placeholder="-----BEGIN CERTIFICATE-----"
            value={values.caPem}
            onChange={(e) => onChange('caPem', e.target.value)}
            {...aria}
          />
        )}
      </Field>
    </>
  )
}
