/** "Add a live profile": validated with the same schema main uses, secrets never shown back. */
import { useEffect, useId, useState } from 'react'
import { FormProvider, useForm, type Path } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import {
  liquidNetworkSchema,
  newLiveProfileInputSchema,
  type NewLiveProfileInput,
  type PublicProfile,
} from '../../../../shared/profile'
import { currentLanguage } from '../../i18n'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { CredentialFields } from './CredentialFields'
import { Field } from './Field'
import { PartnerRateField } from './PartnerRateField'
import { optionalInteger, optionalText, profileFieldMessage, withProfileMessage } from './logic'
import { compactZodResolver, errorCodeAt } from './resolver'

type Output = ReturnType<typeof newLiveProfileInputSchema.parse>

const EMPTY: NewLiveProfileInput = {
  name: '',
  baseUrl: '',
  network: 'liquid',
  auth: { kind: 'client_credentials', clientId: '', clientSecret: '' },
}

export function AddLiveProfileForm({
  onAdded,
  onCancel,
}: {
  onAdded: (profile: PublicProfile) => void
  onCancel: () => void
}): React.JSX.Element {
  const { t } = useTranslation('settings')
  const lang = currentLanguage()
  const id = useId()
  const [failure, setFailure] = useState<IpcError | null>(null)
  const form = useForm<NewLiveProfileInput, unknown, Output>({
    resolver: compactZodResolver(newLiveProfileInputSchema),
    defaultValues: EMPTY,
    // Fields of the credential kind not chosen leave the values, or the strict schema would refuse them.
    shouldUnregister: true,
  })
  const { register, handleSubmit, setError, setFocus, formState } = form
  const message = (path: string): string | undefined =>
    profileFieldMessage(errorCodeAt(formState.errors, path), lang)

  useEffect(() => setFocus('name'), [setFocus])

  const submit = handleSubmit(async (data) => {
    setFailure(null)
    const r = await call('profiles:addLive', data)
    if (r.ok) {
      form.reset(EMPTY)
      onAdded(r.data)
      return
    }
    for (const [path, code] of Object.entries(r.error.fields ?? {})) {
      setError(path as Path<NewLiveProfileInput>, { type: 'server', message: code }, { shouldFocus: true })
    }
    setFailure(withProfileMessage(r.error))
  })

  return (
    <FormProvider {...form}>
      <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`} className="card">
        <h4 id={`${id}-title`}>{t('add.title')}</h4>
        <p className="field-hint">{t('add.intro')}</p>
        <Field id={`${id}-name`} label={t('profile.name')} error={message('name')}>
          {(aria) => <input type="text" autoComplete="off" {...aria} {...register('name')} />}
        </Field>
        <Field
          id={`${id}-base-url`}
          label={t('profile.baseUrl')}
          hint={t('add.baseUrlHint')}
          error={message('baseUrl')}
        >
          {(aria) => (
            <input
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://"
              className="mono"
              {...aria}
              {...register('baseUrl')}
            />
          )}
        </Field>
        <Field id={`${id}-network`} label={t('profile.network')} error={message('network')}>
          {(aria) => (
            <select {...aria} {...register('network')}>
              {liquidNetworkSchema.options.map((n) => (
                <option key={n} value={n}>
                  {t(`network.${n}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <CredentialFields idPrefix={id} />
        <PartnerRateField
          id={`${id}-rate`}
          error={message('partnerRateBps')}
          registration={register('partnerRateBps', { setValueAs: optionalInteger })}
        />
        <Field
          id={`${id}-asset`}
          label={t('profile.assetId')}
          hint={t('add.assetIdHint')}
          error={message('assetId')}
        >
          {(aria) => (
            <input
              type="text"
              autoComplete="off"
              spellCheck={false}
              className="mono"
              {...aria}
              {...register('assetId', { setValueAs: optionalText })}
            />
          )}
        </Field>
        {failure && <ErrorNotice error={failure} />}
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
            {t('add.submit')}
          </button>
          <button type="button" className="btn" onClick={onCancel}>
            {t('actions.cancel')}
          </button>
        </div>
      </form>
    </FormProvider>
  )
}
