/** The channels of payment runs (issue #15), bound to one run service for the app's shared ledger. */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { runsChannels } from '../../shared/channels-runs'
import type { HandlersOf } from '../ipc/router'
import { recoverStoreOnce, replayPendingInto } from '../journal/recovery'
import type { PgLedgerStore } from '../ledger/engines'
import { pgRunStore } from '../ledger/pg/run-store'
import { createRunService, NO_PAYEES, runTemplateCsv, type PayeeLookup, type RunService } from '../runs'
import type { FundingSheet } from '../runs'
import type { RunsDeps } from './deps'
import { engineOf } from './engine'
import { AppError } from './errors'
import { teamSideJournal, type ProfileRuntime } from './runtime'

function sheetView(s: FundingSheet) {
  return {
    runId: s.runId,
    wave: s.wave,
    lines: s.lines.map((l) => ({
      idx: l.idx,
      line: l.line,
      localId: l.localId,
      payee: l.payee,
      pixKey: l.pixKey,
      address: l.funding.address,
      cents: l.funding.cents,
      depixAmount: l.funding.depixAmount,
      uri: l.funding.uri,
      qrSvg: l.funding.qrSvg,
      expiration: l.funding.expiration,
    })),
    problems: s.problems,
    totalCents: s.totalCents,
    totalDepix: s.totalDepix,
    earliestDeadline: s.earliestDeadline,
    assetId: s.assetId,
    filesProblem: s.filesProblem,
    command: s.files?.sendmany.command ?? null,
  }
}

/**
 * `payees`: the payee book (issue #14). MERGE: the lead passes the real book here; until then rows match no
 * payee and must carry their own Pix key.
 */
export function runsHandlers(
  deps: RunsDeps,
  payees: PayeeLookup = NO_PAYEES,
): HandlersOf<typeof runsChannels> {
  const common = {
    operator: deps.operator,
    payees,
    runtime: () => {
      const rt = deps.runtime()
      return { profile: rt.profile, client: rt.client, withdrawals: rt.withdrawals }
    },
    // Issue #28: a profile with a treasury wallet to pay from plans its waves with signing time.
    walletPays: () => {
      try {
        return deps.wallet.payTarget(deps.runtime().profile) !== null
      } catch {
        return false
      }
    },
    onChange: (runId: string) => deps.emit('run:changed', { runId }),
    onError: (e: unknown) => deps.log(`runs: ${e instanceof Error ? e.name : typeof e}`),
  }
  const local = createRunService({ ...common, ledger: deps.ledger })
  // A team profile's runs live on the team ledger: one service per connected runtime, made when the runtime opens
  // so that its recovery (only the runs whose wave this role was creating) runs then, as a desk's does at start-up;
  // a wave stops by itself when the runtime is replaced.
  const teamServices = new WeakMap<ProfileRuntime, RunService>()
  const teamService = (rt: ProfileRuntime, pg: PgLedgerStore): RunService => {
    let s = teamServices.get(rt)
    if (!s) {
      const journal = deps.dataDir ? teamSideJournal(deps.dataDir, rt.profile.id) : null
      s = createRunService({
        ...common,
        records: pg,
        runs: pgRunStore(pg.pool, pg.identity),
        // The same memoised recovery the runtime's payments started: it is awaited, not repeated.
        recordsReady: recoverStoreOnce(pg, journal, common.onError),
        // A wave stopped by a failed database is recovered once it answers, this desk's side journal first.
        replayRecords: () => replayPendingInto(pg, journal, common.onError),
      })
      teamServices.set(rt, s)
    }
    return s
  }
  deps.onRuntimeOpen((rt) => {
    const engine = engineOf(rt)
    if (engine.kind === 'postgres' && engine.pg) teamService(rt, engine.pg)
  })
  const service = (): RunService => {
    const rt = deps.runtime()
    const engine = engineOf(rt)
    return engine.kind === 'sqlite' ? local : teamService(rt, engine.connected())
  }
  const profileId = (): string => deps.runtime().profile.id

  return {
    'runs:saveTemplate': ({ folder }) => {
      const dir = deps.folders.take(folder, 'export', profileId())
      const files = [
        ['modelo-lote-de-pagamentos.csv', runTemplateCsv('pt-BR')],
        ['payment-run-template.csv', runTemplateCsv('en')],
      ] as const
      for (const [name, text] of files) writeFileSync(join(dir, name), text, 'utf8')
      return { files: files.map(([n]) => n) }
    },
    'runs:import': async ({ name, contentBase64 }) => {
      const bytes = Buffer.from(contentBase64, 'base64')
      const { run, result } = await service().importFile(bytes, name)
      return {
        runId: run?.runId ?? null,
        kind: result.kind,
        lines: result.lines,
        rows: result.rows.length,
        issues: result.issues,
      }
    },
    'runs:list': () => service().list(),
    'runs:get': ({ runId }) => service().detail(runId),
    'runs:decide': ({ runId, idx, decision }) => service().decide(runId, idx, decision),
    'runs:approve': ({ runId, confirmPayoutCents }) => service().approve(runId, confirmPayoutCents),
    'runs:startWave': ({ runId, size }) => service().startWave(runId, size),
    'runs:pause': ({ runId }) => service().pause(runId),
    'runs:resume': ({ runId }) => service().resume(runId),
    'runs:cancel': ({ runId, reason }) => service().cancel(runId, reason),
    'runs:sheet': async ({ runId, wave }) => sheetView(await service().sheet(runId, wave)),
    'runs:saveSheet': async ({ runId, wave, folder }) => {
      const sheet = await service().sheet(runId, wave)
      if (sheet.files === null) {
        throw new AppError(
          'sheet_unavailable',
          `The wave cannot be one wallet transaction (${sheet.filesProblem}).`,
        )
      }
      const dir = deps.folders.take(folder, 'export', profileId())
      const base = `${runId}-onda-${wave}`
      writeFileSync(join(dir, `${base}.csv`), sheet.files.csv, 'utf8')
      writeFileSync(
        join(dir, `${base}-sendmany.json`),
        `${JSON.stringify(sheet.files.sendmany, null, 2)}\n`,
        'utf8',
      )
      return { files: [`${base}.csv`, `${base}-sendmany.json`] }
    },
    'runs:markWaveFunded': ({ runId, wave, txId }) => service().markWaveFunded(runId, wave, txId),
    'runs:retryRow': ({ runId, idx }) => service().retryRow(runId, idx),
    'runs:resolveRow': ({ runId, idx, resolution }) => service().resolveRow(runId, idx, resolution),
    'runs:sandboxFundWave': async ({ runId, wave }) => {
      const sandbox = deps.sandbox
      const rt = deps.runtime()
      if (!sandbox || rt.profile.kind !== 'sandbox') {
        throw new AppError('not_sandbox', 'Sandbox tools exist only on the Sandbox profile.')
      }
      const sheet = await service().sheet(runId, wave)
      for (const l of sheet.lines) {
        const remoteId = (await rt.withdrawals.store.get(l.localId))?.remoteId
        if (!remoteId) continue
        sandbox.control.fundWithdrawal(remoteId, l.funding.cents)
        await rt.withdrawals.refresh(l.localId)
      }
      return service().detail(runId)
    },
  }
}
