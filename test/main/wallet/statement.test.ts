/**
 * The wallet statement for a period: opening balance from everything confirmed before it, the period's confirmed
 * movements with their meanings (unmatched ones with their label), closing balance, pending ones apart, and the
 * reconciliation pairs (payment ↔ outgoing, top-up ↔ incoming, refund ↔ incoming).
 */
import { describe, expect, it } from 'vitest'
import { NO_MEANINGS, scriptOfAddress } from '../../../src/main/wallet/meanings'
import { buildStatement } from '../../../src/main/wallet/statement'
import type { WalletMovement } from '../../../src/main/wallet/watch'
import { newKeyedAddress } from '../../../src/main/sandbox/chain/keys'

const DEPIX = 'd'.repeat(64)
const LBTC = 'b'.repeat(64)
const T0 = Date.UTC(2026, 10, 1) // 01/11/2026
const DAY = 86_400_000
const tx = (n: number) => n.toString(16).padStart(64, '0')

function mv(n: number, atMs: number | null, depix: bigint, scripts: string[] = []): WalletMovement {
  return {
    txid: tx(n),
    height: atMs === null ? null : n,
    timestamp: atMs === null ? null : atMs / 1000,
    net: new Map([
      [DEPIX, depix],
      [LBTC, -100n],
    ]),
    fee: 100n,
    outputScripts: scripts,
  }
}

describe('buildStatement', () => {
  const deposit = newKeyedAddress('liquid').address
  const depositScript = scriptOfAddress(deposit)!
  const movements = [
    mv(1, T0 - DAY, 50_000n * 100_000_000n), // before the period: opening
    mv(2, T0, 1_234_560_000n), // at `from`: inside
    mv(3, T0 + DAY, -12_345_000_000n, [depositScript]), // payment funding
    mv(4, T0 + 2 * DAY, 500_000_000n), // refund
    mv(5, T0 + 3 * DAY, 7_000_000_000n), // top-up
    mv(6, T0 + 30 * DAY, 999_000_000n), // at `to`: outside
    mv(7, null, 1n), // pending
  ]
  const s = buildStatement({
    movements,
    depixAsset: DEPIX,
    meanings: {
      paymentsByScript: new Map([[depositScript, 'pay-1']]),
      topupsByTxid: new Map([[tx(5), 'top-1']]),
      refundsByTxid: new Map([[tx(4), 'pay-2']]),
    },
    labels: new Map([[tx(2), { text: 'Aporte', by: 'ana', at: '2026-11-02T10:00:00.000Z' }]]),
    from: T0,
    to: T0 + 30 * DAY,
  })

  it('opening, lines in [from, to) by block, closing = opening + lines; pending apart', () => {
    expect(s.openingUnits).toBe(5_000_000_000_000n)
    expect(s.openingCents).toBe(5_000_000)
    expect(s.lines.map((l) => l.txid)).toEqual([tx(2), tx(3), tx(4), tx(5)])
    expect(s.closingUnits).toBe(
      5_000_000_000_000n + 1_234_560_000n - 12_345_000_000n + 500_000_000n + 7_000_000_000n,
    )
    expect(s.closingCents).toBe(Number(s.closingUnits / 1_000_000n))
    expect(s.pendingTxids).toEqual([tx(7)])
    expect(s.lines[0]).toMatchObject({
      meaning: 'other',
      label: 'Aporte',
      depixCents: 1_234,
      at: new Date(T0).toISOString(),
    })
  })

  it('reconciliation: each payment ↔ its outgoing, each top-up and refund ↔ its incoming', () => {
    expect(s.reconciliation).toEqual({
      payments: [{ localId: 'pay-1', txid: tx(3), depixUnits: -12_345_000_000n }],
      topups: [{ localId: 'top-1', txid: tx(5), depixUnits: 7_000_000_000n }],
      refunds: [{ localId: 'pay-2', txid: tx(4), depixUnits: 500_000_000n }],
    })
    expect(s.lines.find((l) => l.txid === tx(3))).toMatchObject({
      meaning: 'payment',
      localId: 'pay-1',
      label: null,
    })
  })

  it('cents truncate toward zero; a period before everything is empty at zero; a reversed period is refused', () => {
    const neg = buildStatement({
      movements: [mv(1, T0, -1_999_999n)],
      depixAsset: DEPIX,
      meanings: NO_MEANINGS,
      labels: new Map(),
      from: T0,
      to: T0 + 1,
    })
    expect(neg.lines[0]?.depixCents).toBe(-1)
    const empty = buildStatement({
      movements,
      depixAsset: DEPIX,
      meanings: NO_MEANINGS,
      labels: new Map(),
      from: 0,
      to: 1,
    })
    expect(empty).toMatchObject({ openingUnits: 0n, closingUnits: 0n, lines: [] })
    expect(() =>
      buildStatement({
        movements,
        depixAsset: DEPIX,
        meanings: NO_MEANINGS,
        labels: new Map(),
        from: 2,
        to: 1,
      }),
    ).toThrow(RangeError)
  })
})
