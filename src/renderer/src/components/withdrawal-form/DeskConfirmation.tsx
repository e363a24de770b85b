/**
 * The desk's confirmation of a large live payment (issue #26): above this computer's limit (Configurações →
 * Segurança e limites) the analyst types the amount again; Create stays disabled until it matches, and main
 * refuses the create otherwise (app/desk-confirmation.ts). The amount to type is the one they entered, shown in
 * the review above; the field says the limit, not the amount.
 */
import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatBRL } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { call } from '../../ipc'

/** The desk limit from settings; undefined until read (nothing is asked before it is known: main still checks). */
export function useDeskLimit(): number | null {
  const [limit, setLimit] = useState<number | null>(null)
  useEffect(() => {
    void call('settings:get').then((r) => r.ok && setLimit(r.data.liveConfirmAboveCents))
  }, [])
  return limit
}

export function DeskConfirmation({
  limitCents,
  typed,
  onTyped,
  matches,
}: {
  limitCents: number
  typed: string
  onTyped: (v: string) => void
  matches: boolean
}): React.JSX.Element {
  const { t } = useTranslation('withdrawal')
  const id = useId()
  const lang = currentLanguage()
  const showMismatch = typed.trim() !== '' && !matches
  return (
    <div className="alert alert-warn" data-testid="desk-confirmation">
      <p className="alert-title">{t('deskConfirm.title', { limit: formatBRL(limitCents, lang) })}</p>
      <div className="field">
        <label htmlFor={`${id}-amount`}>{t('deskConfirm.label')}</label>
        <input
          id={`${id}-amount`}
          inputMode="decimal"
          autoComplete="off"
          value={typed}
          aria-invalid={showMismatch || undefined}
          aria-describedby={showMismatch ? `${id}-error` : undefined}
          data-testid="desk-confirmation-amount"
          onChange={(e) => onTyped(e.target.value)}
        />
        {showMismatch && (
          <p id={`${id}-error`} className="field-error">
            {t('deskConfirm.mismatch')}
          </p>
        )}
      </div>
    </div>
  )
}
