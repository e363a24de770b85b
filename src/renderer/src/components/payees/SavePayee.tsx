/**
 * "Salvar favorecido" in the payment form: the Pix key, CPF/CNPJ and EUID typed in the form go to the book under
 * a name given here. A refusal (an invalid document, a key another payee has…) is shown here, field by field;
 * nothing in the payment form changes until the payee is saved, and then only its link to the new entry.
 */
import { useState } from 'react'
import { useFormContext } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import type { Payee } from '../../../../shared/payee'
import { currentLanguage } from '../../i18n'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import type { WithdrawalFormValues } from '../withdrawal-form/form-model'
import { ImportFieldLabel } from './field-label'
import { fieldsFromIpc, problemText } from './payee-model'
import { withPayeesMessage } from './payee-errors'

export function SavePayee({ onSaved }: { onSaved: (p: Payee) => void }): React.JSX.Element {
  const { t } = useTranslation('payees')
  const form = useFormContext<WithdrawalFormValues>()
  const [open, setOpen] = useState(false)
  const [name, setName] = useState('')
  const [problems, setProblems] = useState<Record<string, string>>({})
  const [error, setError] = useState<IpcError | null>(null)
  const [saving, setSaving] = useState(false)
  const lang = currentLanguage()

  const save = async (): Promise<void> => {
    const v = form.getValues()
    setSaving(true)
    const r = await call('payees:create', {
      name,
      taxNumber: v.taxNumber,
      pixKeys: [v.pixKeyType === '' ? { key: v.pixKey } : { key: v.pixKey, type: v.pixKeyType }],
      ...(v.euid.trim() === '' ? {} : { euid: v.euid }),
    })
    setSaving(false)
    if (r.ok) {
      setOpen(false)
      setName('')
      setProblems({})
      setError(null)
      return onSaved(r.data)
    }
    setProblems(fieldsFromIpc(r.error))
    setError(
      withPayeesMessage(r.error.code === 'invalid_input' ? { ...r.error, code: 'invalid_payee' } : r.error),
    )
  }

  if (!open) {
    return (
      <p>
        <button
          type="button"
          className="btn btn-small"
          data-testid="save-payee"
          onClick={() => setOpen(true)}
        >
          {t('picker.save')}
        </button>
      </p>
    )
  }
  const v = form.getValues()
  const ready = v.pixKey.trim() !== '' && v.taxNumber.trim() !== ''
  const others = Object.entries(problems).filter(([f]) => f !== 'name')
  return (
    <div className="card" data-testid="save-payee-panel">
      <p className="field-hint">{t('picker.saveHint')}</p>
      {!ready && <p className="field-error">{t('picker.saveNeeds')}</p>}
      {error && <ErrorNotice error={error} />}
      {others.length > 0 && (
        <ul className="field-error" data-testid="save-payee-problems">
          {others.map(([field, code]) => (
            <li key={field} data-code={code}>
              <ImportFieldLabel field={field} /> — {problemText(code, lang)}
            </li>
          ))}
        </ul>
      )}
      <div className="field">
        <label htmlFor="save-payee-name">{t('picker.saveName')}</label>
        <input
          id="save-payee-name"
          type="text"
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={problems.name ? true : undefined}
          aria-describedby={problems.name ? 'save-payee-name-error' : undefined}
        />
        {problems.name && (
          <p id="save-payee-name-error" className="field-error" data-code={problems.name}>
            {problemText(problems.name, lang)}
          </p>
        )}
      </div>
      <div className="actions">
        <button type="button" className="btn btn-small" onClick={() => setOpen(false)} disabled={saving}>
          {t('picker.saveCancel')}
        </button>
        <button
          type="button"
          className="btn btn-small btn-primary"
          disabled={saving || !ready}
          onClick={() => void save()}
        >
          {t('picker.saveConfirm')}
        </button>
      </div>
    </div>
  )
}
