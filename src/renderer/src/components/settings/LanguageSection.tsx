/** The interface language, saved in settings so the next start opens in it. */
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import { LANGUAGES, type Language } from '../../../../shared/profile'
import { currentLanguage } from '../../i18n'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { Field } from './Field'

export function LanguageSection(): React.JSX.Element {
  const { t, i18n } = useTranslation('settings')
  const id = useId()
  const [failure, setFailure] = useState<IpcError | null>(null)

  // Saved first, switched after: what the screen shows is what the next start will show. Never disabled while
  // saving: a disabled control drops keyboard focus.
  const change = async (language: Language): Promise<void> => {
    setFailure(null)
    const r = await call('settings:update', { language })
    if (!r.ok) return setFailure(r.error)
    await i18n.changeLanguage(r.data.language)
  }

  return (
    <section aria-labelledby="settings-language" className="card">
      <h3 id="settings-language">{t('language.title')}</h3>
      <Field id={`${id}-language`} label={t('language.label')} hint={t('language.hint')}>
        {(aria) => (
          <select
            {...aria}
            value={currentLanguage()}
            onChange={(e) => void change(e.target.value as Language)}
          >
            {LANGUAGES.map((l) => (
              <option key={l} value={l} lang={l}>
                {t(`common:language.${l}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      {failure && <ErrorNotice error={failure} />}
    </section>
  )
}
