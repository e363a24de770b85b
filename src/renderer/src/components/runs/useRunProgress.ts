/**
 * Where the money of finished runs stands (issue #26): a run's own state says "completed" once every row was
 * handled, which is not "paid". For the runs whose state no longer says it (completed, cancelled), this reads
 * each run's row outcomes (`runs:get`), so a list can say "Em processamento · 0 de 20 pagos" instead of
 * "Concluído". Bounded to the most recently updated ones; read again when a run or a payment changes.
 */
import { useEffect, useState } from 'react'
import type { RunDetailView } from '../../../../shared/channels-runs'
import type { RunRecord } from '../../../../shared/run'
import { call, useEvent } from '../../ipc'

export type RunProgress = RunDetailView['progress']

/** More than a screen of runs; older finished runs keep their state word. */
export const PROGRESS_READ_MAX = 20
const SETTLING: ReadonlyArray<RunRecord['state']> = ['completed', 'cancelled']
/** Payment changes arrive in bursts (a wave of 20): one read after the burst. */
const REREAD_AFTER_MS = 400

export function useRunProgress(runs: readonly RunRecord[]): ReadonlyMap<string, RunProgress> {
  const [progress, setProgress] = useState<ReadonlyMap<string, RunProgress>>(new Map())
  const [tick, setTick] = useState(0)
  const ids = [...runs]
    .filter((r) => SETTLING.includes(r.state))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
    .slice(0, PROGRESS_READ_MAX)
    .map((r) => r.runId)
    .join(' ')

  useEffect(() => {
    let live = true
    const timer = setTimeout(() => {
      const wanted = ids === '' ? [] : ids.split(' ')
      void Promise.all(wanted.map((runId) => call('runs:get', { runId }))).then((answers) => {
        if (!live) return
        const next = new Map<string, RunProgress>()
        for (const a of answers) if (a.ok) next.set(a.data.run.runId, a.data.progress)
        setProgress(next)
      })
    }, REREAD_AFTER_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [ids, tick])

  useEvent('run:changed', () => setTick((n) => n + 1))
  useEvent('withdrawal:changed', () => setTick((n) => n + 1))
  return progress
}
