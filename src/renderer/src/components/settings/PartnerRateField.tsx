/** The partner rate (basis points) input, shared by the add and edit profile forms. */
import type { UseFormRegisterReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Field } from './Field'

export function PartnerRateField({
  id,
  error,
  registration,
}: {
  id: string
  error: string | undefined
  /** `register('partnerRateBps', { setValueAs: optionalInteger })` of the caller's form. */
  registration: UseFormRegisterReturn
}): React.JSX.Element {
  const { t } = useTranslation('settings')
  return (
    <Field id={id} label={t('profile.partnerRate')} hint={t('add.partnerRateHint')} error={error}>
      {(aria) => <input type="text" inputMode="numeric" autoComplete="off" {...aria} {...registration} />}
    </Field>
  )
}
