import { useTranslation } from 'react-i18next'
import { withdrawalMessages } from '../../../../shared/withdrawal'
import { currentLanguage } from '../../i18n'
import { describeCode } from './form-model'

/**
 * A field's refusal in words. The form keeps stable codes; they are translated here, at render time: the draft's
 * own codes first, then the app's error codes (e.g. `refund_address_invalid`), else the code as is.
 */
export function FieldError({ id, code }: { id: string; code: string | undefined }): React.JSX.Element | null {
  const { t, i18n } = useTranslation('errors')
  if (!code) return null
  const text =
    !Object.hasOwn(withdrawalMessages, code) && i18n.exists(`errors:codes.${code}`)
      ? t(`codes.${code}`)
      : describeCode(code, currentLanguage())
  return (
    <p id={id} className="field-error" data-code={code}>
      {text}
    </p>
  )
}

/** The ids a control's aria-describedby lists: hints first, then the error when there is one. */
export function describedBy(...ids: Array<string | false | null | undefined>): string | undefined {
  const list = ids.filter((id): id is string => typeof id === 'string' && id !== '')
  return list.length ? list.join(' ') : undefined
}
