/** The app drives its embedded sandbox in process: nothing on the machine can reach its switches over HTTP. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { createJsonFileStore } from '../../../src/main/profiles'
import { startSandbox } from '../../../src/main/sandbox'
import { createMemoryVault } from '../../../src/main/secrets/vault'

let dataDir: string
let ctx: AppContext

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'embedded-sandbox-'))
  ctx = await createAppContext({
    dataDir,
    vault: createMemoryVault(),
    store: createJsonFileStore(join(dataDir, 'settings.json')),
    app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
    operator: 'tester',
    trackerAutoStart: false,
    ports: { chooseDirectory: () => Promise.resolve(null), openExternal: () => Promise.resolve() },
  })
})
afterAll(async () => {
  await ctx.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('the app’s embedded sandbox', () => {
  it('has no HTTP control surface: /_sandbox answers 404 whatever the request carries', async () => {
    const sb = ctx.sandbox!
    expect(sb.controlToken).toBe('')
    for (const authorization of [undefined, 'Bearer ', 'Bearer x']) {
      const r = await request(`${sb.controlUrl}/credentials`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(authorization === undefined ? {} : { authorization }),
        },
        body: '{}',
      })
      expect(r.statusCode).toBe(404)
      expect(await r.body.text()).not.toContain('clientSecret')
    }
  })

  it('the Sandbox tools still drive it in process', async () => {
    expect(await ctx.router.handle('sandbox:maintenance', { on: true })).toEqual({
      ok: true,
      data: { on: true },
    })
    expect(ctx.sandbox!.control.summary()).toEqual(expect.objectContaining({ withdrawals: 0 }))
    expect(await ctx.router.handle('sandbox:maintenance', { on: false })).toEqual({
      ok: true,
      data: { on: false },
    })
  })

  it('a running sandbox passed in is used, and left running when the context closes (the E2E restart)', async () => {
    const sb = await startSandbox({ port: 0, httpControl: false })
    const dir = mkdtempSync(join(tmpdir(), 'running-sandbox-'))
    try {
      const open = () =>
        createAppContext({
          dataDir: dir,
          vault: createMemoryVault(),
          store: createJsonFileStore(join(dir, 'settings.json')),
          app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
          operator: 'tester',
          trackerAutoStart: false,
          runningSandbox: sb,
          ports: { chooseDirectory: () => Promise.resolve(null), openExternal: () => Promise.resolve() },
        })
      const first = await open()
      expect(first.sandbox).toBe(sb)
      await first.close()
      // Still the service: a second context signs in against it.
      const second = await open()
      try {
        expect(second.sandbox).toBe(sb)
        await second.runtime().client.signIn()
        expect(second.runtime().client.session()).not.toBeNull()
      } finally {
        await second.close()
      }
      const r = await request(`${sb.baseUrl}/api/ping`)
      expect(r.statusCode).not.toBe(503)
      await r.body.dump()
    } finally {
      await sb.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
