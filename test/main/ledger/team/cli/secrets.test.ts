/**
 * Passwords of the owner's tool (cli/secrets.ts): typed in a terminal without echo, or read from a file; never an
 * argument. The terminal here is a stand-in stream pair with the TTY switches a real one has.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import {
  newPassword,
  promptHidden,
  readPasswordFile,
  type Terminal,
} from '../../../../../src/main/ledger/team/cli/secrets'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-secrets-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function terminal(typed: string[], tty = true): { t: Terminal; shown: () => string; raw: boolean[] } {
  const input = new PassThrough() as unknown as NodeJS.ReadStream & PassThrough
  const raw: boolean[] = []
  Object.assign(input, { isTTY: tty, setRawMode: (on: boolean) => raw.push(on) })
  let shown = ''
  const output = { write: (s: string) => ((shown += s), true) } as unknown as NodeJS.WriteStream
  // Each answer arrives once the prompt asked for it.
  let next = 0
  const feed = (): void => {
    if (next < typed.length) setImmediate(() => input.write(typed[next++]))
  }
  input.on('resume', feed)
  return { t: { input, output }, shown: () => shown, raw }
}

describe('promptHidden', () => {
  it('reads a line in raw mode without echoing it, backspace included', async () => {
    const term = terminal(['sec\u007fxret\r'])
    await expect(promptHidden('Password: ', term.t)).resolves.toBe('sexret')
    expect(term.shown()).toBe('Password: \n')
    expect(term.raw).toEqual([true, false])
  })

  it('is cancelled by Ctrl-C and refuses to run without a terminal', async () => {
    await expect(promptHidden('Password: ', terminal(['ab\u0003']).t)).rejects.toThrow('cancelled')
    await expect(promptHidden('Password: ', terminal([], false).t)).rejects.toThrow(
      'no password: give --password-file, a PGPASSFILE/.pgpass entry, or run in a terminal',
    )
  })
})

describe('newPassword', () => {
  it('asks twice and refuses two different or short passwords', async () => {
    const same = terminal(['long-enough-secret\r', 'long-enough-secret\r'])
    await expect(newPassword('ana', undefined, same.t)).resolves.toBe('long-enough-secret')
    expect(same.shown()).toBe('New password for ana: \nAgain: \n')
    await expect(
      newPassword('ana', undefined, terminal(['long-enough-secret\r', 'long-enough-secreT\r']).t),
    ).rejects.toThrow('the two passwords differ')
    await expect(newPassword('ana', undefined, terminal(['short\r']).t)).rejects.toThrow('at least 12')
    await expect(newPassword('ana', undefined, terminal([], false).t)).rejects.toThrow(
      'no password for ana: give it in a file (--new-password-file) or run in a terminal',
    )
  })

  it('takes the first line of a file, and refuses an empty or missing one', async () => {
    const f = path.join(dir, 'pw')
    fs.writeFileSync(f, 'from-the-file\r\nsecond line\n')
    await expect(newPassword('ana', f)).resolves.toBe('from-the-file')
    fs.writeFileSync(f, '\n')
    expect(() => readPasswordFile(f)).toThrow(`the password file ${f} is empty`)
    expect(() => readPasswordFile(path.join(dir, 'missing'))).toThrow('cannot read the password file')
  })
})
