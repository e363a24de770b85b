import { describe, expect, it } from 'vitest'
import { createRouter, HandlerError, type Handlers } from '../../../src/main/ipc/router'

const info = { name: 'Tesouraria DePix', version: '1.2.3', platform: 'linux', sandbox: true }
const createAppRouter = (s: { info: () => unknown }) =>
  createRouter({ 'app:info': s.info } as Partial<Handlers>)
const appInfo = <T>(x: T): T => x

describe('IPC router (docs/ARCHITECTURE.md)', () => {
  it('answers app:info with the contract shape', async () => {
    const router = createAppRouter({ info: () => appInfo(info) })
    expect(await router.handle('app:info', undefined)).toEqual({ ok: true, data: info })
  })

  it('refuses unknown channels without throwing', async () => {
    const router = createAppRouter({ info: () => appInfo(info) })
    expect(await router.handle('fs:read', '/etc/passwd')).toEqual({
      ok: false,
      error: { code: 'unknown_channel', message: 'Unknown channel' },
    })
    expect(await router.handle({ toString: () => 'app:info' }, undefined)).toMatchObject({ ok: false })
  })

  it('refuses input the contract does not allow', async () => {
    const router = createAppRouter({ info: () => appInfo(info) })
    const r = await router.handle('app:info', { anything: 1 })
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })

  it('strips fields the output contract does not name, so handlers cannot leak them', async () => {
    const leaky = { ...info, clientSecret: 'do-not-leak' }
    const router = createAppRouter({ info: () => leaky })
    const r = await router.handle('app:info', undefined)
    expect(JSON.stringify(r)).not.toContain('do-not-leak')
  })

  it('maps a service error through mapError, keeping only contract fields', async () => {
    class CodedError extends Error {
      code = 'duplicate'
    }
    const router = createRouter(
      {
        'app:info': () => {
          throw new CodedError('similar record')
        },
      },
      {
        mapError: (e) => (e instanceof CodedError ? { code: e.code, message: e.message, secret: 'x' } : null),
      },
    )
    const r = await router.handle('app:info', undefined)
    expect(r).toEqual({ ok: false, error: { code: 'duplicate', message: 'similar record' } })
  })

  it('a channel without a handler is unknown', async () => {
    expect(await createRouter({}).handle('app:info', undefined)).toMatchObject({
      ok: false,
      error: { code: 'unknown_channel' },
    })
  })

  it('turns thrown errors into results; only HandlerError text crosses', async () => {
    const seen: string[] = []
    const boom: Partial<Handlers> = {
      'app:info': () => {
        throw new Error('secret detail at /home/user')
      },
    }
    const r1 = await createRouter(boom, { onUnexpected: (c) => seen.push(c) }).handle('app:info', undefined)
    expect(r1).toEqual({ ok: false, error: { code: 'internal', message: 'Internal error' } })
    expect(seen).toEqual(['app:info'])
    const planned: Partial<Handlers> = {
      'app:info': () => {
        throw new HandlerError('not_ready', 'Not ready yet', { requestId: 'r-1' })
      },
    }
    expect(await createRouter(planned).handle('app:info', undefined)).toEqual({
      ok: false,
      error: { code: 'not_ready', message: 'Not ready yet', requestId: 'r-1' },
    })
  })
})
