/** Replaces a live profile's sign-in (e.g. after a restart with a memory-only vault, or a rotated secret). */
import { useEffect, useId, useState } from 'react'
import { FormProvider, useForm, type Path } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import type { IpcError } from '../../../../shared/contract'
import { credentialsInputSchema, type PublicProfile } from '../../../../shared/profile'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { CredentialFields, type CredentialsFormShape } from './CredentialFields'
import { withProfileMessage } from './logic'
import { compactZodResolver, mapFieldPath } from './resolver'

const formSchema = z.strictObject({ auth: credentialsInputSchema })
type Output = z.output<typeof formSchema>

export function CredentialsForm({
  profile,
  onSaved,
  onCancel,
}: {
  profile: PublicProfile
  onSaved: (profile: PublicProfile) => void
  onCancel: () => void
}): React.JSX.Element {
  const { t } = useTranslation('settings')
  const id = useId()
  const [failure, setFailure] = useState<IpcError | null>(null)
  const clientId = profile.auth.kind === 'client_credentials' ? profile.auth.clientId : ''
  const form = useForm<CredentialsFormShape, unknown, Output>({
    resolver: compactZodResolver(formSchema),
    defaultValues: {
      auth:
        profile.auth.kind === 'client_credentials'
          ? { kind: 'client_credentials', clientId, clientSecret: '' }
          : { kind: 'legacy_token', token: '' },
    },
    shouldUnregister: true,
  })
  const { handleSubmit, setError, setFocus, formState } = form

  useEffect(() => setFocus('auth.kind'), [setFocus])

  const submit = handleSubmit(async (data) => {
    setFailure(null)
    const r = await call('profiles:setCredentials', { id: profile.id, credentials: data.auth })
    if (r.ok) {
      form.reset()
      onSaved(r.data)
      return
    }
    for (const [path, code] of Object.entries(r.error.fields ?? {})) {
      const formPath = mapFieldPath(path, 'credentials', 'auth') as Path<CredentialsFormShape>
      setError(formPath, { type: 'server', message: code }, { shouldFocus: true })
    }
    setFailure(withProfileMessage(r.error))
  })

  return (
    <FormProvider {...form}>
      <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`} className="card">
        <h4 id={`${id}-title`}>{t('credentials.title', { name: profile.name })}</h4>
        <p className="field-hint">{t('credentials.intro')}</p>
        <CredentialFields idPrefix={id} />
        {failure && <ErrorNotice error={failure} />}
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
            {t('credentials.submit')}
          </button>
          <button type="button" className="btn" onClick={onCancel}>
            {t('actions.cancel')}
          </button>
        </div>
      </form>
    </FormProvider>
  )
}
