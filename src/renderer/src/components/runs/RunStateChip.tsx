/**
 * A run's state as the analyst should read it: the rows' outcome once its own state stops saying where the money
 * is ("Em processamento", "Parcialmente pago", "Liquidado", "Nenhum pago"), and how many of its payments were
 * paid, whenever the outcomes are known. One place for the heading, the runs list and Hoje.
 */
import { useTranslation } from 'react-i18next'
import type { RunRecord } from '../../../../shared/run'
import { StatusChip } from '../ui/StatusChip'
import { runSettlement, runTone } from './run-model'
import type { RunProgress } from './useRunProgress'

export function RunStateChip({
  run,
  progress,
  testId,
}: {
  run: Pick<RunRecord, 'state'>
  progress: Pick<RunProgress, 'counts' | 'paid' | 'total'> | undefined
  testId?: string
}): React.JSX.Element {
  const { t } = useTranslation('runs')
  const settlement = progress ? runSettlement(run.state, progress.counts) : null
  return (
    <>
      <StatusChip tone={runTone(run.state, settlement)} testId={testId}>
        {settlement ? t(`settlement.${settlement}`) : t(`state.${run.state}`)}
      </StatusChip>
      {progress && (
        <>
          {' '}
          <span className="cell-note" data-testid={testId ? `${testId}-paid` : undefined}>
            {t('settlement.paidOf', { done: progress.paid, total: progress.total })}
          </span>
        </>
      )}
    </>
  )
}
