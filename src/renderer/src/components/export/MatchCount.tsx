/** How many records the filter matches right now, so nobody exports an empty (or unexpectedly huge) set. */
import { useEffect, useState } from 'react'
import { useFormContext, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { call } from '../../ipc'
import { buildFilter, exportFormSchema, type ExportFormValues } from './logic'

const DEBOUNCE_MS = 300

export function MatchCount(): React.JSX.Element | null {
  const { t } = useTranslation('records')
  const { control } = useFormContext<ExportFormValues>()
  const values = useWatch({ control }) as ExportFormValues
  const [total, setTotal] = useState<number | null>(null)
  const key = JSON.stringify(values)

  useEffect(() => {
    const parsed = exportFormSchema.safeParse(JSON.parse(key))
    let live = true
    const timer = setTimeout(() => {
      if (!parsed.success) return setTotal(null)
      void call('withdrawals:list', { ...buildFilter(parsed.data), limit: 1 }).then((r) => {
        if (live) setTotal(r.ok ? r.data.total : null)
      })
    }, DEBOUNCE_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [key])

  return (
    <p className="field-hint" role="status" data-testid="match-count">
      {total === null ? '' : t('matchCount', { count: total })}
    </p>
  )
}
