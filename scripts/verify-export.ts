/**
 * Verifies an export offline: npx tsx scripts/verify-export.ts <manifest.json | export folder> [--expect-key <fp>]
 * [--against <older manifest.json | folder>]
 * (npm run verify-export -- …). Exit 0: intact (and signed by the expected key when --expect-key is given);
 * 1: not intact; 2: usage error. The verdict first and last, one line per problem between. --json prints the
 * verification as JSON instead. Every character that could drive the terminal is printed escaped (terminal-text.ts).
 */
import path from 'node:path'
// Not records/index: that pulls in the ledger (node:sqlite), which an auditor's verification never needs.
import { isFingerprint } from '../src/main/records/sign'
import { against } from '../src/main/records/against'
import { escapeForTerminal } from '../src/main/records/terminal-text'
import { verifyExport, type ExportVerification } from '../src/main/records/verify'

const USAGE = `usage: verify-export <manifest.json | export folder> [--expect-key "<fingerprint>"] [--json]

  --expect-key  the signing key fingerprint shown in the app (Settings), e.g. "ab12 cd34 … (8 groups)";
                spaces, colons and case are ignored
  --against     an earlier export of the same ledger (kept by the auditor): checks that the audit history
                only grew since that export's audit head; a "note" line says when these two files cannot
                show it (that head is in neither this export's audit.jsonl nor its anchors.jsonl, or another
                key signed it)
  --json        print the full result as JSON
Exit status: 0 intact, 1 not intact, 2 usage error.`

interface Args {
  manifest: string
  expectKey?: string
  against?: string
  json: boolean
}

function parseArgs(argv: readonly string[]): Args | string {
  let manifest: string | undefined
  let expectKey: string | undefined
  let json = false
  let against: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? ''
    if (a === '--against') {
      const v = argv[++i]
      if (v === undefined || v.startsWith('--')) return '--against needs an older manifest or export folder'
      against = v
    } else if (a === '--expect-key') {
      const v = argv[++i]
      if (v === undefined || v.startsWith('--')) return '--expect-key needs a fingerprint'
      if (!isFingerprint(v)) return `--expect-key: "${v}" is not a fingerprint (32 hex digits)`
      expectKey = v
    } else if (a.startsWith('--expect-key=')) {
      const v = a.slice('--expect-key='.length)
      if (!isFingerprint(v)) return `--expect-key: "${v}" is not a fingerprint (32 hex digits)`
      expectKey = v
    } else if (a === '--json') {
      json = true
    } else if (a === '--help' || a === '-h') {
      return ''
    } else if (a.startsWith('-')) {
      return `unknown option ${a}`
    } else if (manifest === undefined) {
      manifest = a
    } else {
      return `unexpected argument ${a}`
    }
  }
  if (manifest === undefined) return 'missing <manifest.json>'
  return {
    manifest,
    json,
    ...(expectKey !== undefined ? { expectKey } : {}),
    ...(against !== undefined ? { against } : {}),
  }
}

/** The verdict: printed first (what the eye meets) and last (what stays on screen). */
function verdict(v: ExportVerification): string {
  return v.ok
    ? 'RESULT: INTACT — every file matches the signed manifest'
    : `RESULT: NOT INTACT — ${v.problems.length} problem${v.problems.length === 1 ? '' : 's'}`
}

/** The report's lines, unescaped: `print` escapes every one. `notes`: what --against could not show. */
function reportLines(
  v: ExportVerification,
  manifestArg: string,
  expectKey?: string,
  notes: readonly string[] = [],
): string[] {
  const lines: string[] = [verdict(v), `Export:      ${path.resolve(manifestArg)}`]
  const m = v.manifest
  const signer = v.signerFingerprint || '(no usable key)'
  const keyNote =
    expectKey === undefined
      ? 'compare with the fingerprint shown in the app (Settings), or pass --expect-key'
      : v.problems.some((p) => p.check === 'signature' && p.detail.startsWith('signed by key'))
        ? 'DOES NOT MATCH --expect-key'
        : 'matches --expect-key'
  lines.push(`Signed by:   ${signer} (${keyNote})`)
  if (m) {
    lines.push(
      `Made by:     Tesouraria DePix ${m.appVersion}, profile "${m.profile.name}" (${m.profile.network}), at ${m.exportedAt}`,
      `Records:     ${m.rowCount}; files ${m.files.map((f) => f.name).join(', ')}`,
    )
  }
  for (const p of v.problems) lines.push(`PROBLEM  ${p.file}  [${p.check}]  ${p.detail}`)
  for (const u of v.unlisted)
    lines.push(`note     ${u}  is not listed in the manifest (not covered by the signature)`)
  for (const n of notes) lines.push(`note     against  ${n}`)
  lines.push(verdict(v))
  return lines
}

/** The report as printed: every line escaped (terminal-text.ts). */
export function report(
  v: ExportVerification,
  manifestArg: string,
  expectKey?: string,
  notes: readonly string[] = [],
): string {
  return printable(reportLines(v, manifestArg, expectKey, notes).join('\n'))
}

/**
 * Every string this CLI prints goes through here: line by line, so the line breaks are ours and every control,
 * DEL or bidirectional character inside a line (from the manifest, a file name, an argument) is shown as \uXXXX.
 */
function printable(text: string): string {
  return text.split('\n').map(escapeForTerminal).join('\n')
}

export async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv)
  if (typeof args === 'string') {
    if (args === '') {
      console.log(USAGE)
      return 0
    }
    console.error(printable(`verify-export: ${args}\n\n${USAGE}`))
    return 2
  }
  const v = await verifyExport(args.manifest, {
    ...(args.expectKey !== undefined ? { expectFingerprint: args.expectKey } : {}),
    // Only --against compares the records' fixed hashes; a plain verification does not compute them.
    fixedHashes: args.against !== undefined,
  })
  // Notes are not failures: the review page shows the same cases amber (records/against.ts).
  let notes: string[] = []
  if (args.against !== undefined) {
    const r = await against(v, args.against)
    v.problems.push(...r.problems)
    v.ok = v.ok && r.problems.length === 0
    notes = r.notes
  }
  // The collected audit data is for the check above, not for printing.
  const { audit: _audit, ...shown } = v
  // JSON text escaped stays JSON with the same meaning (\uXXXX is a JSON escape).
  console.log(
    args.json
      ? printable(
          JSON.stringify(args.against === undefined ? shown : { ...shown, againstNotes: notes }, null, 2),
        )
      : report(v, args.manifest, args.expectKey, notes),
  )
  return v.ok ? 0 : 1
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code
    },
    (e: unknown) => {
      console.error(printable(`verify-export: ${e instanceof Error ? e.message : String(e)}`))
      process.exitCode = 1
    },
  )
}
