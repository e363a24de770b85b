/**
 * The desk's confirmation limit for live payments (issue #26), saved in settings (`liveConfirmAboveCents`, integer
 * cents, zod-checked by main): above it, a live payment is confirmed by typing its amount. Empty = never ask.
 */
import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import { formatBRL, parseBRLToCents } from '../../../../shared/money'
import { DEFAULT_LIVE_CONFIRM_ABOVE_CENTS } from '../../../../shared/profile'
import { currentLanguage } from '../../i18n'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { Button } from '../ui/Button'

export function DeskLimitSection(): React.JSX.Element {
  const { t } = useTranslation('settings')
  const id = useId()
  const lang = currentLanguage()
  const [saved, setSaved] = useState<number | null | undefined>(undefined)
  const [text, setText] = useState('')
  const [invalid, setInvalid] = useState(false)
  const [done, setDone] = useState(false)
  const [failure, setFailure] = useState<IpcError | null>(null)

  useEffect(() => {
    void call('settings:get').then((r) => {
      if (!r.ok) return setFailure(r.error)
      const v = r.data.liveConfirmAboveCents
      setSaved(v)
      setText(v === null ? '' : formatBRL(v, lang).replace(/^R\$\s?/, ''))
    })
  }, [lang])

  const save = async (e: React.FormEvent): Promise<void> => {
    e.preventDefault()
    setDone(false)
    setFailure(null)
    const empty = text.trim() === ''
    const value = empty ? null : parseBRLToCents(text, lang)
    if (!empty && (value === null || value < 0)) return setInvalid(true)
    setInvalid(false)
    const r = await call('settings:update', { liveConfirmAboveCents: value })
    if (!r.ok) return setFailure(r.error)
    setSaved(r.data.liveConfirmAboveCents)
    setDone(true)
  }

  return (
    <section aria-labelledby={`${id}-title`} className="card" data-testid="desk-limit">
      <h3 id={`${id}-title`}>{t('deskLimit.title')}</h3>
      <form onSubmit={(e) => void save(e)}>
        <div className="field">
          <label htmlFor={`${id}-value`}>{t('deskLimit.label')}</label>
          <input
            id={`${id}-value`}
            inputMode="decimal"
            value={text}
            disabled={saved === undefined}
            aria-invalid={invalid || undefined}
            aria-describedby={`${id}-hint${invalid ? ` ${id}-error` : ''}`}
            data-testid="desk-limit-value"
            onChange={(e) => setText(e.target.value)}
          />
          <p id={`${id}-hint`} className="field-hint">
            {t('deskLimit.hint', { default: formatBRL(DEFAULT_LIVE_CONFIRM_ABOVE_CENTS, lang) })}
          </p>
          {invalid && (
            <p id={`${id}-error`} className="field-error" role="alert">
              {t('deskLimit.invalid')}
            </p>
          )}
        </div>
        <Button type="submit" disabled={saved === undefined}>
          {t('deskLimit.save')}
        </Button>
      </form>
      <p role="status" className={done ? 'alert alert-ok' : 'visually-hidden'}>
        {done
          ? saved === null
            ? t('deskLimit.savedOff')
            : t('deskLimit.saved', { limit: formatBRL(saved ?? 0, lang) })
          : ''}
      </p>
      {failure && <ErrorNotice error={failure} />}
    </section>
  )
}
