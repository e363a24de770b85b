/**
 * What a Caixa movement was (issue #27): a matched one opens its record (the payment, or the top-up); an
 * unmatched one shows its label — who wrote it and when, from the ledger's audit log — and can be labelled. A
 * refused label keeps the text typed.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { WalletMovementDto, WalletViewDto } from '../../../../shared/channels-wallet'
import { currentLanguage } from '../../i18n'
import { call } from '../../ipc'
import { useRoute } from '../../stores/route'
import { formatDateTime } from '../format'

export function MovementMeaning({
  movement: m,
  onView,
}: {
  movement: WalletMovementDto
  onView: (v: WalletViewDto) => void
}): React.JSX.Element {
  const { t } = useTranslation('wallet')
  const lang = currentLanguage()
  const go = useRoute((s) => s.go)
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState(m.label?.text ?? '')
  const [problem, setProblem] = useState<string | null>(null)
  const localId = m.localId

  if (m.meaning !== 'other') {
    return (
      <>
        <span data-testid="caixa-movement-meaning" data-meaning={m.meaning}>
          {t(`meaning.${m.meaning}`)}
        </span>{' '}
        {localId !== null && (
          <button
            type="button"
            className="btn-link"
            data-testid="caixa-movement-open"
            onClick={() =>
              go(m.meaning === 'topup' ? { page: 'depositDetail', localId } : { page: 'detail', localId })
            }
          >
            {t('openRecord')}
          </button>
        )}
      </>
    )
  }

  const save = async (): Promise<void> => {
    const r = await call('wallet:label', { txid: m.txid, label: text })
    if (!r.ok) return setProblem(r.error.userMessage?.[lang] ?? r.error.message)
    setProblem(null)
    setEditing(false)
    onView(r.data)
  }
  const id = `label-${m.txid.slice(0, 16)}`
  return (
    <>
      <span data-testid="caixa-movement-meaning" data-meaning="other">
        {t('meaning.other')}
      </span>
      {m.label && !editing && (
        <p data-testid="caixa-movement-label">
          <strong>{m.label.text}</strong>{' '}
          <span className="muted">
            {t('labelBy', { by: m.label.by, when: formatDateTime(m.label.at, lang) })}
          </span>
        </p>
      )}
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void save()
          }}
        >
          <label htmlFor={id}>{t('labelField')}</label>
          <input
            id={id}
            type="text"
            maxLength={120}
            value={text}
            autoComplete="off"
            aria-invalid={problem !== null ? true : undefined}
            aria-describedby={problem !== null ? `${id}-problem` : undefined}
            onChange={(e) => setText(e.target.value)}
          />
          <button type="submit" className="btn btn-primary">
            {t('labelSave')}
          </button>
          {problem !== null && (
            <p id={`${id}-problem`} className="field-error" role="alert">
              {problem}
            </p>
          )}
        </form>
      ) : (
        <button
          type="button"
          className="btn-link"
          data-testid="caixa-movement-label-edit"
          onClick={() => setEditing(true)}
        >
          {m.label ? t('labelChange') : t('labelAdd')}
        </button>
      )}
    </>
  )
}
