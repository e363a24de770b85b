/** Exportar registros: filter (active profile), formats, the OS folder dialog (in main), progress, and where the files went. */
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ChannelOutput, IpcError } from '../../../shared/contract'
import type { PublicProfile, Settings } from '../../../shared/profile'
import { ErrorNotice } from '../components/ErrorNotice'
import { ExportForm } from '../components/export/ExportForm'
import { ExportProgress } from '../components/export/ExportProgress'
import { ExportResult } from '../components/export/ExportResult'
import type { ExportFormValues, ExportRequest } from '../components/export/logic'
import { SigningReminder } from '../components/export/SigningReminder'
import { TechnicalDetails } from '../components/layout/TechnicalDetails'
import { call, useEvent } from '../ipc'
import { useRoute } from '../stores/route'
import { PageHeader } from '../components/ui/PageHeader'

type Outcome =
  | { kind: 'idle' }
  | { kind: 'running'; progress: { done: number; total: number } | null }
  | { kind: 'cancelled' }
  | { kind: 'done'; result: ChannelOutput<'records:export'> }
  | { kind: 'failed'; error: IpcError }

export function RecordsPage(): React.JSX.Element {
  const { t } = useTranslation('records')
  const go = useRoute((s) => s.go)
  const [profiles, setProfiles] = useState<PublicProfile[]>([])
  const [activeId, setActiveId] = useState<string | null>(null)
  const [settings, setSettings] = useState<Pick<Settings, 'csvDelimiter' | 'csvLocale'> | null>(null)
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' })

  useEffect(() => {
    void call('profiles:list').then((r) => {
      if (!r.ok) return
      setProfiles(r.data.profiles)
      setActiveId(r.data.activeId)
    })
    void call('settings:get').then((r) => r.ok && setSettings(r.data))
  }, [])

  useEvent('export:progress', (progress) =>
    setOutcome((o) => (o.kind === 'running' ? { kind: 'running', progress } : o)),
  )

  const defaults = useMemo<ExportFormValues>(
    () => ({
      // The profile in use; blank (before the list arrives) means the same to main.
      profile: activeId ?? '',
      statuses: [],
      fromDay: '',
      toDay: '',
      dateBasis: 'created',
      text: '',
      formats: ['csv', 'json', 'html'],
      csvDelimiter: settings?.csvDelimiter ?? ';',
      locale: settings?.csvLocale ?? 'pt-BR',
    }),
    [activeId, settings],
  )

  const runExport = async (request: ExportRequest, values: ExportFormValues): Promise<void> => {
    setOutcome({ kind: 'running', progress: null })
    // Main shows the folder dialog and keeps the answer; the renderer only ever holds a one-use token.
    const chosen = await call('dialog:chooseFolder', { purpose: 'export' })
    if (!chosen.ok) return setOutcome({ kind: 'failed', error: chosen.error })
    if (chosen.data === null) return setOutcome({ kind: 'cancelled' })
    const r = await call('records:export', { ...request, folder: chosen.data.token })
    if (!r.ok) return setOutcome({ kind: 'failed', error: r.error })
    setOutcome({ kind: 'done', result: r.data })
    // Remembered for next time; a failure here costs nothing but the preference.
    void call('settings:update', { csvDelimiter: values.csvDelimiter, csvLocale: values.locale })
  }

  return (
    <div className="page">
      <PageHeader
        title={t('title')}
        lead={t('intro')}
        actions={
          <button type="button" className="btn" onClick={() => go({ page: 'review' })}>
            {t('openReview')}
          </button>
        }
      />
      <SigningReminder />
      <ExportForm
        profile={profiles.find((p) => p.id === activeId) ?? null}
        defaults={defaults}
        busy={outcome.kind === 'running'}
        onExport={(request, values) => void runExport(request, values)}
      />
      <div aria-live="polite">
        {outcome.kind === 'running' && <ExportProgress progress={outcome.progress} />}
        {outcome.kind === 'cancelled' && <p className="alert alert-info">{t('cancelled')}</p>}
      </div>
      {outcome.kind === 'failed' && <ErrorNotice error={outcome.error} />}
      {outcome.kind === 'failed' && outcome.error.reason && (
        <TechnicalDetails>
          <p className="mono" data-testid="export-failure-reason">
            {outcome.error.reason}
          </p>
        </TechnicalDetails>
      )}
      {outcome.kind === 'done' && <ExportResult result={outcome.result} />}
    </div>
  )
}
