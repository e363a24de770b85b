/**
 * records:export and review:open through the real router: folders come only from main's dialog (a one-use token),
 * exports cover the active profile, and the review compares the signer with an expected fingerprint.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { createJsonFileStore } from '../../../src/main/profiles'
import { exportRecords, generateSigningKeyPair, keyFingerprint } from '../../../src/main/records'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import type { IpcResult } from '../../../src/shared/contract'

let dataDir: string
let ctx: AppContext
const dialog: Array<string | null> = []
const asked: string[] = []

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'export-review-ipc-'))
  ctx = await createAppContext({
    dataDir,
    vault: createMemoryVault(),
    store: createJsonFileStore(join(dataDir, 'settings.json')),
    app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
    operator: 'tester',
    trackerAutoStart: false,
    ports: {
      chooseDirectory: (purpose) => {
        asked.push(purpose)
        return Promise.resolve(dialog.shift() ?? null)
      },
      openExternal: () => Promise.resolve(),
    },
  })
})
afterAll(async () => {
  await ctx.close()
  rmSync(dataDir, { recursive: true, force: true })
})

async function call<T = unknown>(channel: string, input?: unknown): Promise<IpcResult<T>> {
  return (await ctx.router.handle(channel, input)) as IpcResult<T>
}
const codeOf = (r: IpcResult<unknown>): string => (r.ok ? 'ok' : r.error.code)

function folder(name: string): string {
  const dir = join(dataDir, name)
  mkdirSync(dir, { recursive: true })
  return dir
}

async function choose(purpose: 'export' | 'review', dir: string | null): Promise<string> {
  dialog.push(dir)
  const r = await call<{ token: string; folder: string } | null>('dialog:chooseFolder', { purpose })
  if (!r.ok || r.data === null) throw new Error(`no folder: ${JSON.stringify(r)}`)
  expect(r.data.folder).toBe(dir)
  return r.data.token
}

async function exportTo(dir: string): Promise<string> {
  const token = await choose('export', dir)
  const r = await call<{ manifestPath: string }>('records:export', { folder: token, formats: ['json'] })
  if (!r.ok) throw new Error(r.error.code)
  return dirname(r.data.manifestPath)
}

describe('folders come only from main’s dialog', () => {
  it('refuses a raw path for export and review, and writes nothing there', async () => {
    const target = join(dataDir, 'never-chosen')
    for (const input of [
      { dir: target, formats: ['json'] },
      { folder: target, formats: ['json'] },
      { folder: '../../etc', formats: ['json'] },
    ]) {
      expect(codeOf(await call('records:export', input))).toBe('invalid_input')
    }
    expect(codeOf(await call('review:open', { dir: target }))).toBe('invalid_input')
    expect(codeOf(await call('review:open', { folder: target }))).toBe('invalid_input')
    expect(codeOf(await call('review:open', {}))).toBe('invalid_input')
    expect(existsSync(target)).toBe(false)
  })

  it('dialog:chooseFolder asks the OS dialog with its purpose; cancelling hands out nothing', async () => {
    asked.length = 0
    expect(await call('dialog:chooseFolder', { purpose: 'review' })).toEqual({ ok: true, data: null })
    expect(asked).toEqual(['review'])
    expect(codeOf(await call('dialog:chooseFolder', { purpose: 'anything' }))).toBe('invalid_input')
    expect(codeOf(await call('dialog:chooseFolder', { purpose: 'export', dir: '/tmp' }))).toBe(
      'invalid_input',
    )
  })

  it('a token works once: a reused token is refused and writes nothing', async () => {
    const dir = folder('once')
    const token = await choose('export', dir)
    const first = await call('records:export', { folder: token, formats: ['json'] })
    expect(first.ok).toBe(true)
    expect(readdirSync(dir)).toHaveLength(1)
    const again = await call('records:export', { folder: token, formats: ['json'] })
    expect(codeOf(again)).toBe('folder_token_invalid')
    expect(readdirSync(dir)).toHaveLength(1)
  })

  it('an export token does not open a review, nor a review token an export', async () => {
    const exported = await exportTo(folder('purpose'))
    const exportToken = await choose('export', exported)
    expect(codeOf(await call('review:open', { folder: exportToken }))).toBe('folder_token_invalid')
    const reviewToken = await choose('review', folder('purpose-2'))
    expect(codeOf(await call('records:export', { folder: reviewToken, formats: ['json'] }))).toBe(
      'folder_token_invalid',
    )
    expect(readdirSync(join(dataDir, 'purpose-2'))).toEqual([])
  })

  it('refuses an export filtered on another profile, without spending the token', async () => {
    const dir = folder('other-profile')
    const token = await choose('export', dir)
    const other = await call('records:export', {
      folder: token,
      formats: ['json'],
      filter: { profile: 'some-live-profile' },
    })
    expect(codeOf(other)).toBe('export_other_profile')
    expect(readdirSync(dir)).toEqual([])
    const own = await call('records:export', {
      folder: token,
      formats: ['json'],
      filter: { profile: ctx.runtime().profile.id },
    })
    expect(own.ok).toBe(true)
  })
})

describe('the review compares the signer with the expected fingerprint', () => {
  const review = async (dir: string) => {
    const r = await call<{
      ok: boolean
      signerFingerprint: string
      signer: { match: string; expected: string | null; source: string | null }
    }>('review:open', { folder: await choose('review', dir) })
    if (!r.ok) throw new Error(r.error.code)
    return r.data
  }

  it('an export by this computer: prefilled with its own key, match, said so', async () => {
    const key = await call<{ fingerprint: string }>('records:publicKey')
    if (!key.ok) throw new Error('no key')
    const summary = await review(await exportTo(folder('own')))
    expect(summary.ok).toBe(true)
    expect(summary.signerFingerprint).toBe(key.data.fingerprint)
    expect(summary.signer).toEqual({
      match: 'match',
      expected: key.data.fingerprint,
      source: 'this_computer',
    })
    // Clearing the expectation leaves an unknown signer.
    expect(await call('review:checkSigner', { expected: '' })).toEqual({
      ok: true,
      data: { match: 'none', expected: null, source: null },
    })
  })

  it('a valid export signed by another key: unknown until the right fingerprint is entered', async () => {
    const pair = generateSigningKeyPair()
    const stranger = keyFingerprint(pair.publicKeyPem)
    const parent = folder('stranger')
    const made = await exportRecords(ctx.ledger, {
      dir: parent,
      formats: ['json'],
      signer: pair,
      appVersion: '0.0.0-test',
      profile: { name: 'Sandbox', network: 'liquid' },
    })
    const summary = await review(made.folder)
    expect(summary.ok).toBe(true)
    expect(summary.signerFingerprint).toBe(stranger)
    expect(summary.signer).toEqual({ match: 'none', expected: null, source: null })

    const key = await call<{ fingerprint: string }>('records:publicKey')
    if (!key.ok) throw new Error('no key')
    expect(await call('review:checkSigner', { expected: key.data.fingerprint })).toEqual({
      ok: true,
      data: { match: 'mismatch', expected: key.data.fingerprint, source: 'this_computer' },
    })
    // Typed the way people copy it: upper case, no spaces, colons.
    const typed = stranger.replace(/ /g, ':').toUpperCase()
    expect(await call('review:checkSigner', { expected: typed })).toEqual({
      ok: true,
      data: { match: 'match', expected: stranger, source: 'entered' },
    })
    const bad = await call('review:checkSigner', { expected: 'not a fingerprint' })
    expect(codeOf(bad)).toBe('fingerprint_invalid')
    expect(!bad.ok && bad.error.fields).toEqual({ expected: 'fingerprint_invalid' })
  })

  it('checkSigner without an open review is refused', async () => {
    await call('review:close')
    expect(codeOf(await call('review:checkSigner', { expected: '' }))).toBe('no_review')
  })
})
