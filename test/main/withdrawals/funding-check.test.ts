/**
 * The funding check reuses the service's answers this process already has (funding-check.ts `note`): a wave's
 * sheet right after the tracker polled its rows costs no status read per row, and a noted answer still catches a
 * stored row that differs from it.
 */
import { describe, expect, it } from 'vitest'
import type { WithdrawalStatus } from '../../../src/main/api'
import { generateLiquidAddress } from '../../../src/main/liquid/generate'
import { fundingChecker } from '../../../src/main/withdrawals/funding-check'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'

const ADDRESS = generateLiquidAddress('testnet').address

function answer(over: Partial<WithdrawalStatus> = {}): WithdrawalStatus {
  return {
    id: 'wd-1',
    status: 'depix_sent',
    depositAddress: ADDRESS,
    depositAmountInCents: 10_100,
    ...over,
  } as WithdrawalStatus
}

function record(over: Partial<WithdrawalRecord> = {}): WithdrawalRecord {
  return {
    remoteId: 'wd-1',
    depositAddress: ADDRESS,
    depositAmountCents: 10_100,
    ...over,
  } as WithdrawalRecord
}

function setup(): { calls: string[]; checker: ReturnType<typeof fundingChecker>; now: { t: number } } {
  const calls: string[] = []
  const now = { t: 0 }
  const checker = fundingChecker({
    client: {
      withdrawStatus: (id: string) => {
        calls.push(id)
        return Promise.resolve({ data: answer(), requestId: 'r' } as never)
      },
    },
    network: 'testnet',
    monotonic: () => now.t,
  })
  return { calls, checker, now }
}

describe('funding check and the answers already received', () => {
  it('a noted answer spares the read; past its age the service is asked again', async () => {
    const { calls, checker, now } = setup()
    checker.note('wd-1', answer())
    const first = await checker.check(record())
    expect(calls).toEqual([])
    now.t = 10 * 60_000
    const later = await checker.check(record())
    expect(calls).toEqual(['wd-1'])
    expect(first.problem).toBeNull()
    expect(later.problem).toBeNull()
  })

  it('a noted answer still refuses a stored address or amount that differs from it', async () => {
    const { calls, checker } = setup()
    checker.note('wd-1', answer())
    const moved = await checker.check(record({ depositAmountCents: 99_999 }))
    expect(moved).toMatchObject({ problem: 'funding_mismatch', alert: { kind: 'mismatch' } })
    expect(calls).toEqual([])
  })

  it('an answer about another withdrawal is not taken for this one', async () => {
    const { calls, checker } = setup()
    checker.note('wd-1', answer({ id: 'wd-2' }))
    await checker.check(record())
    expect(calls).toEqual(['wd-1'])
  })
})
