/**
 * A child process that creates one withdrawal through the real service (fixtures/crash-child.ts), for the crash
 * and ledger-lock tests. See crash.test.ts for why it is `node --import tsx`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { expect } from 'vitest'
import type { Sandbox } from '../../../src/main/sandbox'
import { REFUND_ADDRESS, waitFor } from './helpers'

const REPO = path.resolve(__dirname, '../../..')
const CHILD = path.join(__dirname, 'fixtures', 'crash-child.ts')
export const SLOW_POST_MS = 4_000

export interface Child {
  proc: ChildProcess
  lines: string[]
  stderr: string[]
  exited: Promise<NodeJS.Signals | number | null>
}

export function startChild(sb: Sandbox, file: string, mode: string, cents: number): Child {
  const proc = spawn(
    process.execPath,
    [
      '--no-warnings',
      '--import',
      'tsx',
      CHILD,
      sb.baseUrl,
      sb.credentials.clientId,
      sb.credentials.clientSecret,
      file,
      mode,
      String(cents),
      REFUND_ADDRESS,
    ],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const lines: string[] = []
  const stderr: string[] = []
  createInterface({ input: proc.stdout as NodeJS.ReadableStream }).on('line', (l) => lines.push(l))
  createInterface({ input: proc.stderr as NodeJS.ReadableStream }).on('line', (l) => stderr.push(l))
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    proc.on('exit', (code, signal) => resolve(signal ?? code)),
  )
  return { proc, lines, stderr, exited }
}

export async function line(c: Child, re: RegExp): Promise<RegExpMatchArray> {
  return waitFor(
    `child line ${re} (stderr: ${c.stderr.join(' | ')})`,
    () => {
      for (const l of c.lines) {
        const m = re.exec(l)
        if (m) return m
      }
      if (c.proc.exitCode !== null) throw new Error(`child exited early: ${c.stderr.join('\n')}`)
      return undefined
    },
    20_000,
  )
}

export async function kill(c: Child): Promise<void> {
  c.proc.kill('SIGKILL')
  expect(await c.exited).toBe('SIGKILL')
}
