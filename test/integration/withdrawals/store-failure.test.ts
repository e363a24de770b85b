/**
 * A created id is never lost (issue #11): the disk fills up between the journal write and the answer. The ledger
 * lives on a real 2 MiB tmpfs, filled right after `submitting` is committed; the sandbox creates the withdrawal;
 * the ledger cannot store the answer. The operator's error names the withdrawal id, the side journal keeps the
 * answer (written into its pre-allocated padding), and the next start writes it into the ledger as `created`.
 * Mounting needs root; where it fails the test says why in its name and the injected-failure test in
 * test/main/withdrawals/side-journal.test.ts covers the same path.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { sideJournalPath, readSideJournal } from '../../../src/main/withdrawals/side-journal'
import { reviewedCreate } from '../../main/withdrawals/reviewed'
import { draft, rig, sandboxWithdrawal, type Rig } from './helpers'

function mountTmpfs(): { dir: string } | { reason: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-tmpfs-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir], { stdio: 'pipe' })
    return { dir }
  } catch (e) {
    fs.rmdirSync(dir)
    const stderr = (e as { stderr?: Buffer }).stderr?.toString().trim()
    return { reason: stderr || (e as Error).message }
  }
}

/** Writes until the file system refuses: ENOSPC. */
function fillDisk(file: string): void {
  const chunk = Buffer.alloc(4096, 0x41)
  const fd = fs.openSync(file, 'w')
  try {
    for (;;) fs.writeSync(fd, chunk)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e
  } finally {
    fs.closeSync(fd)
  }
}

const mounted = mountTmpfs()
let sb: Sandbox | undefined
afterAll(async () => {
  await sb?.close()
  if ('dir' in mounted) {
    execFileSync('umount', [mounted.dir])
    fs.rmdirSync(mounted.dir)
  }
})

describe('disk full after a successful POST (real 2 MiB tmpfs)', () => {
  if ('reason' in mounted) {
    it.skip(`skipped: cannot mount a tmpfs here (${mounted.reason})`, () => undefined)
    return
  }
  const dir = mounted.dir
  const file = path.join(dir, 'ledger.sqlite')
  const filler = path.join(dir, 'filler')

  it('the error names the withdrawal id, the side journal keeps it, the next start stores it as created', async () => {
    sb = await startSandbox()
    let r: Rig | undefined = await rig({
      sb,
      file,
      service: { beforePost: () => fillDisk(filler) },
    })
    let e: unknown
    try {
      e = await reviewedCreate(r.service, draft()).catch((x: unknown) => x)
    } finally {
      fs.rmSync(filler, { force: true })
      await r.close()
      r = undefined
    }
    const remote = sb.control.state().withdrawals
    expect(remote).toHaveLength(1)
    const id = remote[0]!.id
    expect(e).toMatchObject({ code: 'ledger_write_failed', reason: 'side_journal', withdrawalId: id })
    const err = e as { message: string; userMessage: { 'pt-BR': string; en: string } }
    expect(err.message).toContain(id)
    expect(err.userMessage['pt-BR']).toContain(id)
    expect(err.userMessage.en).toContain(id)
    const journal = readSideJournal(sideJournalPath(file)!)
    expect(journal.entries.map((x) => x.outcome.remoteId)).toEqual([id])

    // The next start: the answer goes in as created, with its deposit facts; nothing is sent again.
    r = await rig({ sb, file })
    try {
      const rows = r.ledger.query().rows
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({
        localState: 'created',
        remoteId: id,
        depositAddress: sandboxWithdrawal(sb, id)?.depositAddress,
      })
      const audit = r.ledger.audit({ subject: rows[0]!.localId }).rows.map((x) => x.action)
      expect(audit).toContain('withdrawal.created')
      expect(readSideJournal(sideJournalPath(file)!).entries).toEqual([])
      expect(r.posts()).toBe(1)
    } finally {
      await r.close()
    }
  }, 30_000)
})
