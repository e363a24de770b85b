/** A labelled form control with its hint and error wired to it (aria-describedby, aria-invalid). */
import type { ReactNode } from 'react'

export interface FieldAria {
  id: string
  'aria-invalid': true | undefined
  'aria-describedby': string | undefined
}

export function fieldAria(id: string, hint: ReactNode | undefined, error: string | undefined): FieldAria {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean)
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': ids.length > 0 ? ids.join(' ') : undefined,
  }
}

export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string
  label: ReactNode
  hint?: ReactNode
  error?: string | undefined
  children: (aria: FieldAria) => ReactNode
}): React.JSX.Element {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      )}
      {children(fieldAria(id, hint, error))}
      <FieldMessage id={id} error={error} />
    </div>
  )
}

export function FieldMessage({
  id,
  error,
}: {
  id: string
  error?: string | undefined
}): React.JSX.Element | null {
  if (!error) return null
  return (
    <span id={`${id}-error`} className="field-error">
      {error}
    </span>
  )
}
