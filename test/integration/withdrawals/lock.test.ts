/**
 * One process owns a ledger file, across processes: while a child process has a create in flight (the sandbox
 * holds its POST), this process cannot open the ledger, so its start-up recovery cannot turn the child's
 * `submitting` record into `outcome_unknown`. When the child is done, the record is `created` with its id.
 */
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext } from '../../../src/main/app/context'
import { openLedger } from '../../../src/main/ledger/sqlite'
import { createJsonFileStore } from '../../../src/main/profiles'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import { kill, line, startChild } from './child'
import { rig, tempLedgerFile } from './helpers'

let sb: Sandbox
let dir: string
let file: string
beforeAll(async () => {
  sb = await startSandbox()
  ;({ dir, file } = tempLedgerFile())
})
afterAll(async () => {
  await sb.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('a second process on the same ledger', () => {
  it('is refused while the first has a create in flight; the record ends created, not outcome_unknown', async () => {
    sb.control.injectFault({ kind: 'slow', delayMs: 2_500, endpoint: 'withdraw' })
    const c = startChild(sb, file, 'in-flight', 1_300)
    try {
      const localId = (await line(c, /^journaled (\S+)$/))[1] as string
      expect(() => openLedger(file)).toThrow(expect.objectContaining({ code: 'locked' }))
      // The whole app refuses to start on it too (the shell shows the message).
      await expect(
        createAppContext({
          dataDir: dir,
          vault: createMemoryVault(),
          store: createJsonFileStore(`${dir}/settings.json`),
          app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
          operator: 'second',
          sandbox: false,
          ports: { chooseDirectory: async () => null, openExternal: async () => undefined },
        }),
      ).rejects.toMatchObject({ code: 'locked' })
      const stored = await line(c, /^stored (\S+) (\S+)$/)
      expect(stored.slice(1)).toEqual([localId, 'created'])
      await kill(c)

      // The OS released the dead owner's lock: this process opens and recovers it, and finds it created.
      const r = await rig({ sb, file })
      try {
        const rec = r.ledger.get(localId)
        expect(rec).toMatchObject({ localState: 'created', amountCents: 1_300 })
        expect(rec?.remoteId).toBe(sb.control.state().withdrawals[0]?.id)
        expect(r.posts()).toBe(1)
      } finally {
        await r.close()
      }
    } finally {
      if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL')
    }
  }, 30_000)
})
