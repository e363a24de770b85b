/**
 * Settings → "Livro-caixa da equipe": where the active profile keeps its records — this computer, or the team's
 * PostgreSQL server. Test before saving; "Salvar e conectar" stores the settings (the password in main's vault)
 * and main re-opens the profile on them. What was typed is kept on every refusal.
 */
import { useCallback, useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { TeamTestResult } from '../../../../shared/channels-team'
import type { IpcError, IpcResult } from '../../../../shared/contract'
import type { TeamLedgerView } from '../../../../shared/team-ledger'
import { currentLanguage } from '../../i18n'
import { call, useEvent } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { TeamChangesHistory } from './TeamChangesHistory'
import { TeamLeadStatus } from './TeamLeadStatus'
import { TeamLedgerFields } from './TeamLedgerFields'
import { TeamTestOutcome } from './TeamTestOutcome'
import {
  checkTeamForm,
  fieldMessages,
  formOf,
  type TeamFormField,
  type TeamFormValues,
} from './team-ledger-form'

type Busy = 'test' | 'save' | 'forget' | null

export function TeamLedgerSection(): React.JSX.Element {
  const { t } = useTranslation('teamLedger')
  const lang = currentLanguage()
  const id = useId()
  const [view, setView] = useState<TeamLedgerView | null>(null)
  const [values, setValues] = useState<TeamFormValues>(() => formOf(null))
  const [errors, setErrors] = useState<Partial<Record<TeamFormField, string>>>({})
  const [failure, setFailure] = useState<IpcError | null>(null)
  const [result, setResult] = useState<TeamTestResult | null>(null)
  const [notice, setNotice] = useState<'saved' | 'forgotten' | null>(null)
  const [busy, setBusy] = useState<Busy>(null)

  /** The profile's stored connection replaces the form (a fresh start, or another profile's settings). */
  const apply = useCallback((r: IpcResult<TeamLedgerView>): void => {
    if (!r.ok) return setFailure(r.error)
    setView(r.data)
    setValues(formOf(r.data.settings))
    setErrors({})
    setResult(null)
  }, [])
  useEffect(() => {
    let live = true
    void call('team:get').then((r) => live && apply(r))
    return () => {
      live = false
    }
  }, [apply])
  // Another profile chosen (or this one re-opened): its own team settings.
  useEvent('profile:changed', () => void call('team:get').then(apply))

  const refused = (error: IpcError): void => {
    if (error.fields && Object.keys(error.fields).length > 0) setErrors(fieldMessages(error.fields, lang))
    else setFailure(error)
  }

  const run = async (action: Exclude<Busy, null>): Promise<void> => {
    setFailure(null)
    setNotice(null)
    if (action === 'forget') {
      setBusy(action)
      const r = await call('team:forget')
      setBusy(null)
      if (!r.ok) return refused(r.error)
      setView(r.data)
      setValues(formOf(null))
      setResult(null)
      return setNotice('forgotten')
    }
    // Testing may use the stored password (main decides whether it applies); saving needs one somewhere.
    const checked = checkTeamForm(values, lang, action === 'save' && !view?.hasPassword)
    if (!checked.ok) return setErrors(checked.errors)
    setErrors({})
    setBusy(action)
    const input = {
      settings: checked.settings,
      ...(checked.password === undefined ? {} : { password: checked.password }),
    }
    if (action === 'test') {
      setResult(null)
      const r = await call('team:test', input)
      setBusy(null)
      return r.ok ? setResult(r.data) : refused(r.error)
    }
    const r = await call('team:save', input)
    setBusy(null)
    if (!r.ok) return refused(r.error)
    setView(r.data)
    setValues((v) => ({ ...v, password: '' }))
    setNotice('saved')
  }

  const s = view?.settings
  return (
    <section aria-labelledby={`${id}-title`} className="card" data-testid="team-ledger">
      <h3 id={`${id}-title`}>{t('title')}</h3>
      <p className="field-hint">{t('intro')}</p>
      <p data-testid="team-ledger-using">
        {s
          ? t('usingTeam', { role: s.role, host: s.host, port: s.port, database: s.database })
          : t('usingLocal')}
      </p>
      <TeamLeadStatus />
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          void run('save')
        }}
      >
        <TeamLedgerFields
          id={id}
          values={values}
          errors={errors}
          hasPassword={view?.hasPassword === true}
          onChange={(field, value) => setValues((v) => ({ ...v, [field]: value }))}
        />
        {failure && <ErrorNotice error={failure} />}
        {result && <TeamTestOutcome result={result} />}
        <p role="status" className={notice ? 'alert alert-ok' : 'visually-hidden'}>
          {notice ? t(notice) : ''}
        </p>
        <div className="actions">
          <button type="button" className="btn" disabled={busy !== null} onClick={() => void run('test')}>
            {busy === 'test' ? t('testing') : t('test')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy !== null}>
            {t('save')}
          </button>
          {s && (
            <button type="button" className="btn" disabled={busy !== null} onClick={() => void run('forget')}>
              {t('forget')}
            </button>
          )}
        </div>
      </form>
      {s && <TeamChangesHistory />}
    </section>
  )
}
