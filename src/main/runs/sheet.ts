/**
 * One funding sheet per wave: every deposit address of the wave with its exact DePix amount, the wave's total and
 * earliest deadline, each row's `liquidnetwork:` URI and QR (from the single payment's funding instructions, so the
 * same checks apply: a deposit address the Liquid helper refuses never appears), and the same list as files for
 * wallets that pay many outputs in one transaction:
 *
 * - `…-wave-N.csv`: `address,amount,asset_id,deadline,line,local_id`, amounts with a point and 8 decimals;
 * - `…-wave-N-sendmany.json`: the arguments of Elements Core's
 *   `sendmany "" {"addr":amount,…} minconf "comment" [subtractfeefrom] replaceable conf_target "estimate_mode"
 *   {"addr":"assetid",…}` — the amounts object is the 2nd positional argument and the asset map the 9th
 *   (`output_assets`); every output names the DePix asset, else Elements would send its policy asset (L-BTC).
 *   Amounts are JSON strings ("12.34000000"): Elements reads amounts given as strings exactly, never through a
 *   float. Two rows with one address cannot be paid by one `sendmany` (an object has one key per address), so such
 *   a wave gets no files and says why.
 */
import type { FundingInstructions } from '../../shared/contract'
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
  filesProblem: 'no_lines' | 'repeated_address' | null
}

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
  const totalCents = lines.reduce((s, l) => s + l.funding.cents, 0)
  const deadlines = lines
    .map((l) => l.funding.expiration)
    .filter((e): e is string => e !== null)
    .sort((a, b) => Date.parse(a) - Date.parse(b))
  const assetId = lines[0]?.funding.assetId ?? null
  const addresses = new Set(lines.map((l) => l.funding.address))
  const filesProblem =
    lines.length === 0 ? 'no_lines' : addresses.size !== lines.length ? 'repeated_address' : null
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

function sheetCsv(lines: readonly SheetLine[]): string {
  // Every value is from a closed alphabet (address, digits, hex, ISO date, UUID): nothing needs quoting, and no
  // cell can start with a formula character.
  const out = ['address,amount,asset_id,deadline,line,local_id']
  for (const l of lines) {
    out.push(
      [
        l.funding.address,
        l.funding.depixAmount,
        l.funding.assetId,
        l.funding.expiration ?? '',
        String(l.line),
        l.localId,
      ].join(','),
    )
  }
  return `${out.join('\r\n')}\r\n`
}

function sendmanyArgs(runId: string, wave: number, lines: readonly SheetLine[]): SendmanyArgs {
  const amounts: Record<string, string> = {}
  const assets: Record<string, string> = {}
  for (const l of lines) {
    amounts[l.funding.address] = l.funding.depixAmount
    assets[l.funding.address] = l.funding.assetId
  }
  const comment = `${runId} wave ${wave}`
  // dummy, amounts, minconf, comment, subtractfeefrom, replaceable, conf_target, estimate_mode, output_assets
  const positional = ['', amounts, 1, comment, [], null, null, null, assets]
  const command =
    `elements-cli -named sendmany amounts='${JSON.stringify(amounts)}' ` +
    `comment='${comment}' output_assets='${JSON.stringify(assets)}'`
  return { amounts, output_assets: assets, positional, command }
}
