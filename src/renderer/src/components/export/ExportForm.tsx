/** The export form: filter and formats, validated locally, sent without a folder (main's dialog gives a token). */
import { useEffect } from 'react'
import { FormProvider, useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useTranslation } from 'react-i18next'
import type { PublicProfile } from '../../../../shared/profile'
import { FilterFields } from './FilterFields'
import { FormatFields } from './FormatFields'
import { buildExportRequest, exportFormSchema, type ExportFormValues, type ExportRequest } from './logic'
import { MatchCount } from './MatchCount'

export function ExportForm({
  profile,
  defaults,
  busy,
  onExport,
}: {
  /** The active profile: an export covers it alone (main refuses another). */
  profile: PublicProfile | null
  defaults: ExportFormValues
  busy: boolean
  onExport: (request: ExportRequest, values: ExportFormValues) => void
}): React.JSX.Element {
  const { t } = useTranslation('records')
  const form = useForm<ExportFormValues>({ resolver: zodResolver(exportFormSchema), defaultValues: defaults })
  const { reset } = form

  // Settings arrive after the first render: take them unless the operator already changed something.
  useEffect(() => reset(defaults, { keepDirtyValues: true }), [defaults, reset])

  const submit = form.handleSubmit((values) => onExport(buildExportRequest(values), values))

  return (
    <FormProvider {...form}>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('formLabel')}>
        <FilterFields profile={profile} />
        <FormatFields />
        <MatchCount />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('submit')}
          </button>
        </div>
        <p className="field-hint">{t('folderHint')}</p>
      </form>
    </FormProvider>
  )
}
