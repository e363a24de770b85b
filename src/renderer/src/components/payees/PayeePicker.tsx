/**
 * The payment form's link to the payee book: search the book and choose a payee (their key, CPF/CNPJ and EUID
 * fill the form), choose among their keys, unlink; or save what the form holds as a new payee ("Salvar
 * favorecido"). While a payee is chosen, a key or document typed over theirs is pointed out at once; main refuses
 * it too (the name check would compare with the wrong person).
 */
import { useEffect, useState } from 'react'
import { useFormContext, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { Payee } from '../../../../shared/payee'
import { parsePixKey } from '../../../../shared/pix-key'
import { maskTaxId, normalizeTaxId } from '../../../../shared/tax-id'
import { call } from '../../ipc'
import { FieldError } from '../withdrawal-form/FieldError'
import type { WithdrawalFormValues } from '../withdrawal-form/form-model'
import { withPayee } from './prefill'
import { SavePayee } from './SavePayee'

/** True when the form's key and document are the payee's (a blank document is the payee's by default). */
export function formMatchesPayee(
  p: Payee,
  v: Pick<WithdrawalFormValues, 'pixKey' | 'pixKeyType' | 'taxNumber'>,
): boolean {
  const key = parsePixKey(v.pixKey, v.pixKeyType === '' ? undefined : v.pixKeyType)
  if (!key.ok || !p.pixKeys.some((k) => k.key === key.key)) return false
  return v.taxNumber.trim() === '' || normalizeTaxId(v.taxNumber) === p.taxNumber
}

export function PayeePicker(): React.JSX.Element {
  const { t } = useTranslation('payees')
  const form = useFormContext<WithdrawalFormValues>()
  const [payeeId, pixKey, pixKeyType, taxNumber] = useWatch({
    control: form.control,
    name: ['payeeId', 'pixKey', 'pixKeyType', 'taxNumber'],
  })
  // The chosen payee as the book has it now (a repeat or a kept draft carries only the id).
  const [loaded, setLoaded] = useState<Payee | null>(null)
  const payee = payeeId && loaded?.id === payeeId ? loaded : null
  const [text, setText] = useState('')
  const [results, setResults] = useState<{ text: string; rows: Payee[] } | null>(null)
  const found = text.trim() !== '' && results?.text === text ? results.rows : null
  const [saved, setSaved] = useState<string | null>(null)
  const payeeError = form.formState.errors.payeeId?.message

  useEffect(() => {
    if (!payeeId || loaded?.id === payeeId) return
    let live = true
    void call('payees:get', { id: payeeId }).then((r) => {
      if (!live) return
      if (r.ok) setLoaded(r.data)
      else form.setError('payeeId', { type: 'server', message: 'payee_not_found' })
    })
    return () => {
      live = false
    }
  }, [payeeId, loaded, form])

  useEffect(() => {
    if (text.trim() === '') return
    let live = true
    const timer = setTimeout(() => {
      void call('payees:list', { text, limit: 8 }).then((r) => {
        if (live && r.ok) setResults({ text, rows: r.data.rows })
      })
    }, 150)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [text])

  const choose = (p: Payee, key?: string): void => {
    const next = withPayee(form.getValues(), p, key)
    for (const f of ['pixKey', 'pixKeyType', 'taxNumber', 'euid', 'payeeId'] as const) {
      form.setValue(f, next[f], { shouldDirty: true })
    }
    form.clearErrors(['payeeId', 'pixKey', 'taxNumber', 'euid'])
    setLoaded(p)
    setText('')
  }

  const unlink = (): void => {
    form.setValue('payeeId', '', { shouldDirty: true })
    form.clearErrors(['payeeId', 'pixKey', 'taxNumber'])
    setSaved(null)
  }

  const differs = payee !== null && !formMatchesPayee(payee, { pixKey, pixKeyType, taxNumber })

  return (
    <fieldset className="field payee-picker" data-testid="payee-picker">
      <legend>{t('picker.legend')}</legend>
      {payee ? (
        <div data-testid="payee-chosen" data-payee-id={payee.id}>
          <p className="field-ok">
            {t('picker.chosen', { name: payee.name, taxNumber: maskTaxId(payee.taxNumber) })}
          </p>
          {payee.pixKeys.length > 1 && (
            <div className="field">
              <label htmlFor="payee-key">{t('picker.keyLabel')}</label>
              <select id="payee-key" value={pixKey} onChange={(e) => choose(payee, e.target.value)}>
                {payee.pixKeys.map((k) => (
                  <option key={k.key} value={k.key}>
                    {t(`keyTypes.${k.type}`)}: {k.key}
                  </option>
                ))}
                {!payee.pixKeys.some((k) => k.key === pixKey) && <option value={pixKey}>{pixKey}</option>}
              </select>
            </div>
          )}
          {differs && (
            <p className="alert alert-warn" role="alert" data-testid="payee-differs">
              {t('picker.differs', { name: payee.name })}
            </p>
          )}
          <button type="button" className="btn btn-small" onClick={unlink}>
            {t('picker.unlink')}
          </button>
        </div>
      ) : (
        <>
          <p className="field-hint" id="payee-picker-hint">
            {t('picker.hint')}
          </p>
          <div className="field">
            <label htmlFor="payee-picker-search">{t('picker.search')}</label>
            <input
              id="payee-picker-search"
              type="search"
              autoComplete="off"
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-describedby="payee-picker-hint"
            />
          </div>
          {found !== null && (
            <div aria-live="polite">
              {found.length === 0 ? (
                <p className="field-hint">{t('picker.noResults')}</p>
              ) : (
                <ul className="inline-list" aria-label={t('picker.results')} data-testid="payee-results">
                  {found.map((p) => (
                    <li key={p.id}>
                      <button
                        type="button"
                        className="btn btn-small"
                        aria-label={t('picker.choose', { name: p.name })}
                        onClick={() => choose(p)}
                      >
                        {p.name} <span className="mono">{maskTaxId(p.taxNumber)}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <SavePayee
            onSaved={(p) => {
              choose(p)
              setSaved(t('picker.savedLinked', { name: p.name }))
            }}
          />
        </>
      )}
      {saved && payee && (
        <p className="field-ok" role="status" data-testid="payee-saved">
          {saved}
        </p>
      )}
      <FieldError id="payeeId-error" code={payeeError} />
    </fieldset>
  )
}
