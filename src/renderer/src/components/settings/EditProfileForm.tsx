/**
 * Edits what a live profile may change: its name, the partner rate, the per-endpoint rate limits, and its treasury
 * wallet's Esplora and address policy (issue #27; the Sandbox profile's chain is its own, not editable).
 */
import { useEffect, useId, useState } from 'react'
import { useForm, type Path } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { IpcError } from '../../../../shared/contract'
import { DEFAULT_RATE_LIMITS, ENDPOINTS } from '../../../../shared/api-limits'
import {
  DEFAULT_ESPLORA,
  profileUpdateSchema,
  type ProfileUpdate,
  type PublicProfile,
} from '../../../../shared/profile'
import { currentLanguage } from '../../i18n'
import { call } from '../../ipc'
import { ErrorNotice } from '../ErrorNotice'
import { Field } from './Field'
import { PartnerRateField } from './PartnerRateField'
import { optionalInteger, profileFieldMessage, withProfileMessage } from './logic'
import { compactZodResolver, errorCodeAt } from './resolver'

type Output = ReturnType<typeof profileUpdateSchema.parse>

export function EditProfileForm({
  profile,
  onSaved,
  onCancel,
}: {
  profile: PublicProfile
  onSaved: (profile: PublicProfile) => void
  onCancel: () => void
}): React.JSX.Element {
  const { t } = useTranslation('settings')
  const lang = currentLanguage()
  const id = useId()
  const [failure, setFailure] = useState<IpcError | null>(null)
  const { register, handleSubmit, setError, setFocus, formState } = useForm<ProfileUpdate, unknown, Output>({
    resolver: compactZodResolver(profileUpdateSchema),
    defaultValues: {
      name: profile.name,
      partnerRateBps: profile.partnerRateBps,
      // A blank limit means "the API contract default": sending the map without it resets that endpoint.
      rateLimits: { ...profile.rateLimits },
      esploraUrl: profile.esploraUrl ?? '',
      walletAddressPolicy: profile.walletAddressPolicy ?? 'fresh',
    },
  })
  const message = (path: string): string | undefined =>
    profileFieldMessage(errorCodeAt(formState.errors, path), lang)

  useEffect(() => setFocus('name'), [setFocus])

  const submit = handleSubmit(async (patch) => {
    setFailure(null)
    const r = await call('profiles:update', {
      id: profile.id,
      patch: { ...patch, rateLimits: patch.rateLimits ?? {} },
    })
    if (r.ok) return onSaved(r.data)
    for (const [path, code] of Object.entries(r.error.fields ?? {})) {
      const formPath = path.replace(/^patch\./, '') as Path<ProfileUpdate>
      setError(formPath, { type: 'server', message: code }, { shouldFocus: true })
    }
    setFailure(withProfileMessage(r.error))
  })

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`} className="card">
      <h4 id={`${id}-title`}>{t('edit.title', { name: profile.name })}</h4>
      <Field id={`${id}-name`} label={t('profile.name')} error={message('name')}>
        {(aria) => <input type="text" autoComplete="off" {...aria} {...register('name')} />}
      </Field>
      <PartnerRateField
        id={`${id}-rate`}
        error={message('partnerRateBps')}
        registration={register('partnerRateBps', { setValueAs: optionalInteger })}
      />
      <fieldset className="field rate-limits">
        <legend>{t('edit.rateLimits')}</legend>
        <span className="field-hint">{t('edit.rateLimitsHint')}</span>
        <div className="rate-limit-grid">
          {ENDPOINTS.map((endpoint) => (
            <Field
              key={endpoint}
              id={`${id}-limit-${endpoint}`}
              label={t('edit.rateLimitLabel', {
                endpoint: t(`allowances.endpointNames.${endpoint}`),
                default: DEFAULT_RATE_LIMITS[endpoint],
              })}
              error={message(`rateLimits.${endpoint}`)}
            >
              {(aria) => (
                <input
                  type="text"
                  inputMode="numeric"
                  autoComplete="off"
                  placeholder={String(DEFAULT_RATE_LIMITS[endpoint])}
                  {...aria}
                  {...register(`rateLimits.${endpoint}`, { setValueAs: optionalInteger })}
                />
              )}
            </Field>
          ))}
        </div>
      </fieldset>
      <Field
        id={`${id}-esplora`}
        label={t('edit.esploraUrl')}
        hint={profile.network === 'regtest' ? t('edit.esploraHintRegtest') : t('edit.esploraHint')}
        error={message('esploraUrl')}
      >
        {(aria) => (
          <input
            type="url"
            autoComplete="off"
            spellCheck={false}
            placeholder={profile.network === 'regtest' ? '' : DEFAULT_ESPLORA[profile.network]}
            {...aria}
            {...register('esploraUrl')}
          />
        )}
      </Field>
      <Field id={`${id}-addresses`} label={t('edit.addressPolicy')} error={message('walletAddressPolicy')}>
        {(aria) => (
          <select {...aria} {...register('walletAddressPolicy')}>
            <option value="fresh">{t('edit.addressPolicyFresh')}</option>
            <option value="fixed">{t('edit.addressPolicyFixed')}</option>
          </select>
        )}
      </Field>
      {failure && <ErrorNotice error={failure} />}
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
          {t('edit.submit')}
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          {t('actions.cancel')}
        </button>
      </div>
    </form>
  )
}
