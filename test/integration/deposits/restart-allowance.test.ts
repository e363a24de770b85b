/**
 * After a restart the client's POST /deposit bucket starts from the ledger's deposits of the last minute, as the
 * service's still does (docs/API-CONTRACT.md#s8-1): a new process on the same ledger file must not believe it has a full minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { depositDraft, depositRig, reviewedDeposit, tempLedgerFile } from './helpers'
import fs from 'node:fs'

const LIMIT = 6
let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ rateLimits: { deposit: LIMIT } })
})
afterAll(async () => {
  await sb.close()
})

describe('POST /deposit allowance across a restart', () => {
  it('the new client counts the deposits created a moment ago; a fresh ledger starts full', async () => {
    const t = tempLedgerFile()
    let r = await depositRig({ sb, file: t.file, rateLimits: { deposit: LIMIT } })
    try {
      for (let i = 0; i < 4; i++) {
        const rec = await reviewedDeposit(r.service, depositDraft({ amountCents: 10_000 + i }))
        expect(rec.localState).toBe('created')
      }
      await r.close()
      r = await depositRig({ sb, file: t.file, rateLimits: { deposit: LIMIT } })
      // 4 of 6 spent seconds ago: about 2 left, never the full 6 a new bucket would claim.
      const available = r.client.allowance().deposit.available
      expect(available).toBeLessThan(2.5)
      expect(available).toBeGreaterThan(1)
    } finally {
      await r.close()
      fs.rmSync(t.dir, { recursive: true, force: true })
    }
    const fresh = await depositRig({ sb, rateLimits: { deposit: LIMIT } })
    try {
      expect(fresh.client.allowance().deposit.available).toBe(LIMIT)
    } finally {
      await fresh.close()
    }
  }, 30_000)
})
