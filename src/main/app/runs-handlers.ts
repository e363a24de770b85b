/** The channels of payment runs (issue #15), bound to one run service for the app's shared ledger. */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Handlers } from '../ipc/router'
import { createRunService, NO_PAYEES, runTemplateCsv, type PayeeLookup } from '../runs'
import type { FundingSheet } from '../runs'
import type { AppState } from './context'
import { AppError } from './errors'

type RunChannel = Extract<keyof Handlers, `runs:${string}`>
type RunHandlers = Pick<Handlers, RunChannel>

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
export function runsHandlers(state: AppState, payees: PayeeLookup = NO_PAYEES): RunHandlers {
  const runs = createRunService({
    ledger: state.ledger,
    operator: state.o.operator,
    payees,
    runtime: () => {
      const rt = state.runtime()
      return { profile: rt.profile, client: rt.client, withdrawals: rt.withdrawals }
    },
    onChange: (runId) => state.emit('run:changed', { runId }),
    onError: (e) => state.o.log?.(`runs: ${e instanceof Error ? e.name : typeof e}`),
  })
  const profileId = (): string => state.runtime().profile.id

  return {
    'runs:saveTemplate': ({ folder }) => {
      const dir = state.folders.take(folder, 'export', profileId())
      const files = [
        ['modelo-lote-de-pagamentos.csv', runTemplateCsv('pt-BR')],
        ['payment-run-template.csv', runTemplateCsv('en')],
      ] as const
      for (const [name, text] of files) writeFileSync(join(dir, name), text, 'utf8')
      return { files: files.map(([n]) => n) }
    },
    'runs:import': async ({ name, contentBase64 }) => {
      const bytes = Buffer.from(contentBase64, 'base64')
      const { run, result } = await runs.importFile(bytes, name)
      return {
        runId: run?.runId ?? null,
        kind: result.kind,
        lines: result.lines,
        rows: result.rows.length,
        issues: result.issues,
      }
    },
    'runs:list': () => runs.list(),
    'runs:get': ({ runId }) => runs.detail(runId),
    'runs:decide': ({ runId, idx, decision }) => runs.decide(runId, idx, decision),
    'runs:approve': ({ runId, confirmDepositCents }) => runs.approve(runId, confirmDepositCents),
    'runs:startWave': ({ runId, size }) => runs.startWave(runId, size),
    'runs:pause': ({ runId }) => runs.pause(runId),
    'runs:resume': ({ runId }) => runs.resume(runId),
    'runs:cancel': ({ runId }) => runs.cancel(runId),
    'runs:sheet': async ({ runId, wave }) => sheetView(await runs.sheet(runId, wave)),
    'runs:saveSheet': async ({ runId, wave, folder }) => {
      const sheet = await runs.sheet(runId, wave)
      if (sheet.files === null) {
        throw new AppError(
          'sheet_unavailable',
          `The wave cannot be one wallet transaction (${sheet.filesProblem}).`,
        )
      }
      const dir = state.folders.take(folder, 'export', profileId())
      const base = `${runId}-onda-${wave}`
      writeFileSync(join(dir, `${base}.csv`), sheet.files.csv, 'utf8')
      writeFileSync(
        join(dir, `${base}-sendmany.json`),
        `${JSON.stringify(sheet.files.sendmany, null, 2)}\n`,
        'utf8',
      )
      return { files: [`${base}.csv`, `${base}-sendmany.json`] }
    },
    'runs:markWaveFunded': ({ runId, wave, txId }) => runs.markWaveFunded(runId, wave, txId),
    'runs:sandboxFundWave': async ({ runId, wave }) => {
      const sandbox = state.sandbox
      const rt = state.runtime()
      if (!sandbox || rt.profile.kind !== 'sandbox') {
        throw new AppError('not_sandbox', 'Sandbox tools exist only on the Sandbox profile.')
      }
      const sheet = await runs.sheet(runId, wave)
      for (const l of sheet.lines) {
        const remoteId = state.ledger.get(l.localId)?.remoteId
        if (!remoteId) continue
        sandbox.control.fundWithdrawal(remoteId, l.funding.cents)
        await rt.withdrawals.refresh(l.localId)
      }
      return runs.detail(runId)
    },
  }
}
