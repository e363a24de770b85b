/**
 * The wave's funding sheet as files (src/main/runs/sheet.ts): the CSV through the records' quoted, neutralising
 * writer (a stored `expiration` of `x,=HYPERLINK(…)` cannot become a formula cell), the `sendmany` command safe to
 * paste whatever the stored run id says, and a wave with one unconfirmed row shows nothing payable at all.
 */
import { describe, expect, it } from 'vitest'
import { buildSheet } from '../../../src/main/runs/sheet'
import type { FundingInstructions } from '../../../src/shared/contract'
import type { RunRowRecord } from '../../../src/shared/run'

const ASSET = 'ce091c998b83c78bb71a632313ba3760f1763d9cfcffae02258ffa9865a37bd2'
const funding = (n: number, expiration: string | null): FundingInstructions => ({
  localId: `wd-${n}`,
  address: `lq1address${n}`,
  confidential: true,
  network: 'liquid',
  cents: 1_000 * n,
  depixAmount: `${10 * n}.00000000`,
  assetId: ASSET,
  uri: `liquidnetwork:lq1address${n}?amount=${10 * n}.00&assetid=${ASSET}`,
  qrSvg: '<svg/>',
  expiration,
  toleranceBps: 500,
})
const row = (n: number): RunRowRecord =>
  ({
    idx: n,
    line: n + 1,
    localId: `wd-${n}`,
    draft: { pixKey: `p${n}@example.com` },
  }) as unknown as RunRowRecord

describe('the wave CSV', () => {
  it('every cell quoted, a formula in a stored field neutralised after the comma', () => {
    const sheet = buildSheet('run-1', 1, [
      {
        row: row(1),
        funding: funding(1, 'x,=HYPERLINK("http://evil.example","ok")'),
        problem: null,
        payee: 'A',
      },
      { row: row(2), funding: funding(2, '2026-11-27T20:00:00.000Z'), problem: null, payee: '=B' },
    ])
    const lines = sheet.files!.csv.split('\r\n')
    expect(lines[0]).toBe('"address","amount","asset_id","deadline","line","local_id"')
    expect(lines[1]).toBe(
      `"lq1address1","10.00000000","${ASSET}","x,'=HYPERLINK(""http://evil.example"",""ok"")","2","wd-1"`,
    )
    expect(lines[2]).toBe(`"lq1address2","20.00000000","${ASSET}","2026-11-27T20:00:00.000Z","3","wd-2"`)
    expect(lines[3]).toBe('')
  })

  it('the sendmany command keeps a rewritten run id out of the shell', () => {
    const sheet = buildSheet("run'; rm -rf ~; echo '", 1, [
      { row: row(1), funding: funding(1, null), problem: null, payee: null },
    ])
    const command = sheet.files!.sendmany.command
    expect(command).toContain("comment='run rm -rf  echo  wave 1'")
    expect(command.split("'").length % 2).toBe(1)
  })

  it('one row the service did not confirm: no line, no total, no file for the wave', () => {
    const sheet = buildSheet('run-1', 1, [
      { row: row(1), funding: funding(1, null), problem: null, payee: null },
      { row: row(2), funding: null, problem: 'funding_mismatch', payee: null },
    ])
    expect(sheet.lines).toEqual([])
    expect(sheet.totalCents).toBe(0)
    expect(sheet.files).toBeNull()
    expect(sheet.filesProblem).toBe('funding_unconfirmed')
    expect(sheet.problems.map((p) => [p.line, p.problem])).toEqual([
      [2, 'wave_unconfirmed'],
      [3, 'funding_mismatch'],
    ])
  })
})
