/** Payment runs (issue #15): import, approval, waves through the single payment's create, funding sheets. */
export {
  createRunService,
  type RunDetail,
  type RunRuntime,
  type RunService,
  type RunServiceDeps,
} from './service'
export { RunError, RUN_ERROR_CODES, type RunErrorCode } from './errors'
export { NO_PAYEES, importRunFile, importRunPath, type PayeeLike, type PayeeLookup } from './import'
export { runTemplateCsv } from './import/template'
export { planWave, creationSpanMs, type WavePlan } from './planner'
export type { FundingSheet } from './sheet'
export { ROW_OUTCOMES, type RowOutcome, type RunProgress } from './outcome'
