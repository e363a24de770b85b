/**
 * One funding sheet per wave: every deposit address of the wave with its exact DePix amount, the wave's total and
 * earliest deadline, each row's `liquidnetwork:` URI and QR (from the single payment's funding instructions, so the
 * same checks apply: a deposit address the Liquid helper refuses never appears), and the same list as files for
 * wallets that pay many outputs in one transaction:
 *
 * - `…-wave-N.csv`: `address,amount,asset_id,deadline,line,local_id`, amounts with a point and 8 decimals, written
 *   by the records' CSV writer (records/csv.ts: every cell quoted, formula characters neutralised) because the
 *   deadline and ids are stored text a spreadsheet would otherwise run (`x,=HYPERLINK(…)`); no BOM: the content
 *   is ASCII and wallet tools read the file too;
 * - `…-wave-N-sendmany.json`: the arguments of Elements Core's
 *   `sendmany "" {"addr":amount,…} minconf "comment" [subtractfeefrom] replaceable conf_target "estimate_mode"
 *   {"addr":"assetid",…}` — the amounts object is the 2nd positional argument and the asset map the 9th
 *   (`output_assets`); every output names the DePix asset, else Elements would send its policy asset (L-BTC).
 *   Amounts are JSON strings ("12.34000000"): Elements reads amounts given as strings exactly, never through a
 *   float. Two rows with one address cannot be paid by one `sendmany` (an object has one key per address), so such
 *   a wave gets no files and says why.
 *
 * Funding shown is funding checked (issue #24): every line's instructions were confirmed by the service
 * (withdrawals/funding-check.ts). When any row of the wave was not (`funding_mismatch`, `funding_unconfirmed`), the
 * wave shows no address and gets no files at all (the confirmed rows are listed as `wave_unconfirmed`): paying
 * the rest would fund a wave whose records someone may have changed.
 */
import type { FundingInstructions } from '../../shared/contract'
import { csvLine } from '../records/csv'
import { centsToDePix } from '../../shared/money'
import type { RunRowRecord } from '../../shared/run'

export interface SheetLine {
  idx: number
  line: number
  localId: string
  payee: string | null
  pixKey: string
  funding: FundingInstructions
}

export interface SheetProblem {
  idx: number
  line: number
  localId: string | null
  /** A FundingProblem code, or `not_created`. */
  problem: string
}

export interface FundingSheet {
  runId: string
  wave: number
  lines: SheetLine[]
  problems: SheetProblem[]
  totalCents: number
  /** 8 decimals. */
  totalDepix: string
  earliestDeadline: string | null
  assetId: string | null
  /** Null when the lines cannot be one wallet transaction (see `filesProblem`). */
  files: { csv: string; sendmany: SendmanyArgs } | null
  filesProblem: SheetFilesProblem | null
}

export type SheetFilesProblem = 'no_lines' | 'repeated_address' | 'funding_unconfirmed'

/** Row problems that mean the service did not confirm what is stored: the whole wave gets no files. */
const UNCONFIRMED: ReadonlySet<string> = new Set(['funding_mismatch', 'funding_unconfirmed'])

export interface SendmanyArgs {
  /** Positional argument 2. */
  amounts: Record<string, string>
  /** Positional argument 9, `output_assets`. */
  output_assets: Record<string, string>
  /** The whole positional list, with nulls (defaults) between: `elements-cli sendmany` with these, in order. */
  positional: unknown[]
  /** The same call with named arguments. */
  command: string
}

export function buildSheet(
  runId: string,
  wave: number,
  rows: ReadonlyArray<{
    row: RunRowRecord
    funding: FundingInstructions | null
    problem: string | null
    payee: string | null
  }>,
): FundingSheet {
  const lines: SheetLine[] = []
  const problems: SheetProblem[] = []
  for (const { row, funding, problem, payee } of rows) {
    if (funding === null || row.localId === null) {
      problems.push({ idx: row.idx, line: row.line, localId: row.localId, problem: problem ?? 'not_created' })
      continue
    }
    lines.push({
      idx: row.idx,
      line: row.line,
      localId: row.localId,
      payee,
      pixKey: row.draft.pixKey,
      funding,
    })
  }
  if (problems.some((p) => UNCONFIRMED.has(p.problem))) {
    // Nothing of the wave is payable: the confirmed rows are listed as held by the others.
    for (const l of lines.splice(0)) {
      problems.push({ idx: l.idx, line: l.line, localId: l.localId, problem: 'wave_unconfirmed' })
    }
    problems.sort((a, b) => a.line - b.line)
  }
  const totalCents = lines.reduce((s, l) => s + l.funding.cents, 0)
  const deadlines = lines
    .map((l) => l.funding.expiration)
    .filter((e): e is string => e !== null)
    .sort((a, b) => Date.parse(a) - Date.parse(b))
  const assetId = lines[0]?.funding.assetId ?? null
  const addresses = new Set(lines.map((l) => l.funding.address))
  const filesProblem: SheetFilesProblem | null = problems.some((p) => UNCONFIRMED.has(p.problem))
    ? 'funding_unconfirmed'
    : lines.length === 0
      ? 'no_lines'
      : addresses.size !== lines.length
        ? 'repeated_address'
        : null
  return {
    runId,
    wave,
    lines,
    problems,
    totalCents,
    totalDepix: centsToDePix(totalCents),
    earliestDeadline: deadlines[0] ?? null,
    assetId,
    files:
      filesProblem === null ? { csv: sheetCsv(lines), sendmany: sendmanyArgs(runId, wave, lines) } : null,
    filesProblem,
  }
}

export function sheetCsv(lines: readonly SheetLine[]): string {
  let out = csvLine(['address', 'amount', 'asset_id', 'deadline', 'line', 'local_id'], ',')
  for (const l of lines) {
    out += csvLine(
      [
        l.funding.address,
        l.funding.depixAmount,
        l.funding.assetId,
        l.funding.expiration ?? '',
        String(l.line),
        l.localId,
      ],
      ',',
    )
  }
  return out
}

function sendmanyArgs(runId: string, wave: number, lines: readonly SheetLine[]): SendmanyArgs {
  const amounts: Record<string, string> = {}
  const assets: Record<string, string> = {}
  for (const l of lines) {
    amounts[l.funding.address] = l.funding.depixAmount
    assets[l.funding.address] = l.funding.assetId
  }
  // The command is pasted into a shell inside single quotes: the run id is stored text, so only a closed
  // alphabet reaches it (a quote in a rewritten id would end the quoting).
  const comment = `${runId} wave ${wave}`.replace(/[^A-Za-z0-9 _.-]/g, '')
  // dummy, amounts, minconf, comment, subtractfeefrom, replaceable, conf_target, estimate_mode, output_assets
  const positional = ['', amounts, 1, comment, [], null, null, null, assets]
  const command =
    `elements-cli -named sendmany amounts='${JSON.stringify(amounts)}' ` +
    `comment='${comment}' output_assets='${JSON.stringify(assets)}'`
  return { amounts, output_assets: assets, positional, command }
}
