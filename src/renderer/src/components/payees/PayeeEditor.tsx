/**
 * A payee of the book, new or edited: name, CPF/CNPJ (masked as typed, check digits judged by the shared schema),
 * one or more Pix keys with their type, EUID and notes. Checked with the shared schema before anything is sent;
 * main checks again and also refuses a document or key another payee has. A refusal is shown on its field and
 * never clears what was typed.
 */
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import type { Payee } from '../../../../shared/payee'
import { PIX_KEY_TYPES, type PixKeyType } from '../../../../shared/pix-key'
import { currentLanguage } from '../../i18n'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { maskTaxIdAsTyped } from '../withdrawal-form/form-model'
import {
  EMPTY_PAYEE,
  fieldsFromIpc,
  payeeProblems,
  problemText,
  toPayeeInput,
  type PayeeEditorValues,
} from './payee-model'
import { withPayeesMessage } from './payee-errors'

function Problem({ id, code }: { id: string; code: string | undefined }): React.JSX.Element | null {
  if (!code) return null
  return (
    <p id={id} className="field-error" data-code={code}>
      {problemText(code, currentLanguage())}
    </p>
  )
}

export function PayeeEditor({
  payee,
  initial,
  onSaved,
  onCancel,
}: {
  /** The payee being edited; absent for a new one. */
  payee?: Payee
  initial?: PayeeEditorValues
  onSaved: (p: Payee) => void
  onCancel: () => void
}): React.JSX.Element {
  const { t } = useTranslation('payees')
  const [values, setValues] = useState<PayeeEditorValues>(initial ?? EMPTY_PAYEE)
  const [problems, setProblems] = useState<Record<string, string>>({})
  const [error, setError] = useState<IpcError | null>(null)
  const [saving, setSaving] = useState(false)
  const headingRef = useRef<HTMLHeadingElement>(null)
  useEffect(() => headingRef.current?.focus(), [])

  const set = (patch: Partial<PayeeEditorValues>): void => setValues((v) => ({ ...v, ...patch }))
  const setKey = (i: number, patch: Partial<{ key: string; type: '' | PixKeyType }>): void =>
    setValues((v) => ({ ...v, keys: v.keys.map((k, j) => (j === i ? { ...k, ...patch } : k)) }))

  const save = async (): Promise<void> => {
    const found = payeeProblems(values)
    setProblems(found)
    if (Object.keys(found).length > 0) {
      setError({ code: 'invalid_payee', message: 'invalid payee' })
      return
    }
    setSaving(true)
    setError(null)
    const input = toPayeeInput(values)
    const r = payee
      ? await call('payees:update', { id: payee.id, payee: input, expectedUpdatedAt: payee.updatedAt })
      : await call('payees:create', input)
    setSaving(false)
    if (r.ok) return onSaved(r.data)
    setProblems(fieldsFromIpc(r.error))
    setError(r.error.code === 'invalid_input' ? { ...r.error, code: 'invalid_payee' } : r.error)
  }

  const id = payee ? `payee-edit-${payee.id}` : 'payee-new'
  return (
    <section className="card payee-editor" aria-labelledby={`${id}-title`} data-testid="payee-editor">
      <h3 id={`${id}-title`} tabIndex={-1} ref={headingRef}>
        {payee ? t('editor.titleEdit') : t('editor.titleNew')}
      </h3>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          void save()
        }}
      >
        {error && <ErrorNotice error={withPayeesMessage(error)} />}
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('editor.name')}</label>
          <input
            id={`${id}-name`}
            type="text"
            autoComplete="off"
            value={values.name}
            onChange={(e) => set({ name: e.target.value })}
            aria-invalid={problems.name ? true : undefined}
            aria-describedby={problems.name ? `${id}-name-error` : undefined}
          />
          <Problem id={`${id}-name-error`} code={problems.name} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-tax`}>{t('editor.taxNumber')}</label>
          <input
            id={`${id}-tax`}
            type="text"
            autoComplete="off"
            spellCheck={false}
            value={values.taxNumber}
            onChange={(e) => set({ taxNumber: maskTaxIdAsTyped(e.target.value) })}
            aria-invalid={problems.taxNumber ? true : undefined}
            aria-describedby={problems.taxNumber ? `${id}-tax-error` : undefined}
          />
          <Problem id={`${id}-tax-error`} code={problems.taxNumber} />
        </div>
        <fieldset className="field">
          <legend>{t('editor.keys')}</legend>
          {values.keys.map((k, i) => {
            const n = i + 1
            const code = problems[`pixKeys.${i}.key`] ?? problems[`pixKeys.${i}`]
            return (
              <div className="pix-key-row" key={i}>
                <div className="field">
                  <label htmlFor={`${id}-type-${i}`}>{t('editor.keyType', { n })}</label>
                  <select
                    id={`${id}-type-${i}`}
                    value={k.type}
                    onChange={(e) => setKey(i, { type: e.target.value as '' | PixKeyType })}
                  >
                    <option value="">{t('keyTypes.auto')}</option>
                    {PIX_KEY_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {t(`keyTypes.${type}`)}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field field-grow">
                  <label htmlFor={`${id}-key-${i}`}>{t('editor.key', { n })}</label>
                  <input
                    id={`${id}-key-${i}`}
                    type="text"
                    autoComplete="off"
                    spellCheck={false}
                    value={k.key}
                    onChange={(e) => setKey(i, { key: e.target.value })}
                    aria-invalid={code ? true : undefined}
                    aria-describedby={code ? `${id}-key-${i}-error` : undefined}
                  />
                  <Problem id={`${id}-key-${i}-error`} code={code} />
                </div>
                {values.keys.length > 1 && (
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`${t('editor.removeKey')} ${t('editor.key', { n })}`}
                    onClick={() => set({ keys: values.keys.filter((_, j) => j !== i) })}
                  >
                    {t('editor.removeKey')}
                  </button>
                )}
              </div>
            )
          })}
          <Problem id={`${id}-keys-error`} code={problems.pixKeys} />
          <button
            type="button"
            className="btn btn-small"
            onClick={() => set({ keys: [...values.keys, { key: '', type: '' }] })}
          >
            {t('editor.addKey')}
          </button>
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-euid`}>{t('editor.euid')}</label>
          <input
            id={`${id}-euid`}
            type="text"
            autoComplete="off"
            spellCheck={false}
            value={values.euid}
            onChange={(e) => set({ euid: e.target.value })}
            aria-invalid={problems.euid ? true : undefined}
          />
          <Problem id={`${id}-euid-error`} code={problems.euid} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-notes`}>{t('editor.notes')}</label>
          <input
            id={`${id}-notes`}
            type="text"
            autoComplete="off"
            value={values.notes}
            onChange={(e) => set({ notes: e.target.value })}
            aria-invalid={problems.notes ? true : undefined}
          />
          <Problem id={`${id}-notes-error`} code={problems.notes} />
        </div>
        <div className="actions">
          <button type="button" className="btn" onClick={onCancel} disabled={saving}>
            {t('editor.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={saving} aria-busy={saving || undefined}>
            {saving ? t('editor.saving') : t('editor.save')}
          </button>
        </div>
      </form>
    </section>
  )
}
