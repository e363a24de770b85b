/**
 * Configurações → Livro-caixa da equipe: the team's settings history (issue #31) — who changed the approval
 * threshold, a rate allowance or an analyst, when, from what to what — as the team's audit chain recorded it.
 * Read when the section opens and when the threshold changes (team:status).
 */
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { describeSettingChange, type SettingChange } from '../../../../shared/team-settings-changes'
import { currentLanguage } from '../../i18n'
import { call, useEvent } from '../../ipc'
import { DateTime } from '../format'

export function TeamChangesHistory(): React.JSX.Element | null {
  const { t } = useTranslation('teamLedger')
  const lang = currentLanguage()
  const [changes, setChanges] = useState<SettingChange[] | null>(null)
  const load = useCallback((): Promise<void> => {
    return call('team:changes').then((r) => setChanges(r.ok ? r.data : null))
  }, [])
  useEffect(() => {
    let live = true
    void call('team:changes').then((r) => live && setChanges(r.ok ? r.data : null))
    return () => {
      live = false
    }
  }, [])
  useEvent('team:status', () => void load())
  if (changes === null) return null
  return (
    <div data-testid="team-changes">
      <h4>{t('changesTitle')}</h4>
      {changes.length === 0 ? (
        <p className="field-hint">{t('changesNone')}</p>
      ) : (
        <ul>
          {changes.map((c) => (
            <li key={c.seq}>
              <DateTime iso={c.at} short /> — {describeSettingChange(c, lang)}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
