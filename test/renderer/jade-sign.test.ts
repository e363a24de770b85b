/**
 * "Assinar com a Jade (USB)" step by step (src/renderer/src/components/wallet/jade/jade-sign.ts), with a stand-in
 * `navigator.serial` and a stand-in of lwk_wasm's `Jade`: which failure code each step gives, what the Jade is
 * (not) asked, and when a port is opened afresh. LWK's real Jade code against a fake device is the E2E
 * (test/e2e/renderer/wallet-pay-jade.spec.ts); this covers the paths a browser test cannot reach cheaply (no Web
 * Serial, LWK not loading, a port that will not open, a Jade that never answers, an unlock never finished).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Lwk } from '../../src/renderer/src/components/wallet/jade/lwk-in-renderer'
import type * as JadeSign from '../../src/renderer/src/components/wallet/jade/jade-sign'
import { JADE_USB_IDS } from '../../src/shared/jade'

const JADE_PORT = { getInfo: () => ({ usbVendorId: 0x10c4, usbProductId: 0xea60 }) }
const REQUEST = { pset: 'cHNldP8=', network: 'regtest' as const, signers: ['64eee54f'] }

interface FakeDevice {
  state: string
  fingerprint: string
  /** getVersion never answers */
  silent?: boolean
  /** how unlocking a LOCKED Jade ends (LWK's unlock inside getMasterXpub): default unlocked */
  unlock?: 'ok' | 'wrong_pin' | 'never'
  refuse?: boolean
}

let mod: typeof JadeSign
let asked: string[]
let opened: number
let ports: object[]
let requestPort: ReturnType<typeof vi.fn>
let device: FakeDevice

function fakeLwk(o: { openFails?: boolean } = {}): Lwk {
  function Jade(this: unknown, network: string, filter: boolean): Promise<unknown> {
    opened++
    asked.push(`open ${network} ${filter}`)
    if (o.openFails) return Promise.reject(new DOMException('Failed to open serial port.', 'NetworkError'))
    return Promise.resolve({
      getVersion: () => {
        asked.push('getVersion')
        return device.silent ? new Promise(() => undefined) : Promise.resolve({ JADE_STATE: device.state })
      },
      getMasterXpub: () => {
        asked.push('getMasterXpub')
        if (device.state === 'LOCKED' && device.unlock === 'wrong_pin')
          return Promise.reject(new Error('Wrong Pin'))
        if (device.state === 'LOCKED' && device.unlock === 'never') return new Promise(() => undefined)
        if (device.state === 'LOCKED') device.state = 'READY'
        return Promise.resolve({ fingerprint: () => device.fingerprint })
      },
      sign: (pset: { b64: string }) => {
        asked.push(`sign ${pset.b64}`)
        return device.refuse
          ? Promise.reject(new Error('Jade Error: Error code: -32000 - message: User declined'))
          : Promise.resolve({ toString: () => 'c2lnbmVk' })
      },
    })
  }
  return {
    Jade,
    Network: { mainnet: () => 'liquid', testnet: () => 'testnet', regtestDefault: () => 'regtest' },
    Pset: class {
      constructor(readonly b64: string) {}
    },
  } as unknown as Lwk
}

beforeEach(async () => {
  vi.resetModules()
  mod = await import('../../src/renderer/src/components/wallet/jade/jade-sign')
  asked = []
  opened = 0
  ports = []
  device = { state: 'READY', fingerprint: '64eee54f' }
  requestPort = vi.fn(() => {
    ports.push(JADE_PORT)
    return Promise.resolve(JADE_PORT)
  })
  vi.stubGlobal('navigator', { serial: { getPorts: () => Promise.resolve([...ports]), requestPort } })
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p
  } catch (e) {
    if (e instanceof mod.JadeSignError) return e.code
    throw e
  }
  throw new Error('expected a failure')
}

describe('signing with a Jade', () => {
  it('asks for a port with Jade ids first, then loads LWK, checks state and fingerprint, and signs', async () => {
    const steps: string[] = []
    const lwk = fakeLwk()
    const loadLwk = vi.fn(() => Promise.resolve(lwk))
    expect(await mod.signWithJade(REQUEST, (s) => steps.push(s), loadLwk)).toBe('c2lnbmVk')
    expect(requestPort).toHaveBeenCalledWith({
      filters: JADE_USB_IDS.map((i) => ({ usbVendorId: i.vendorId, usbProductId: i.productId })),
    })
    expect(steps).toEqual(['choosing', 'loading', 'connecting', 'checking', 'confirm_on_device'])
    expect(asked).toEqual(['open regtest true', 'getVersion', 'getMasterXpub', 'sign cHNldP8='])
    // A second signature reuses the open Jade (LWK 0.13.1 cannot give its port back) and asks for no port.
    await mod.signWithJade(REQUEST, () => undefined, loadLwk)
    expect(opened).toBe(1)
    expect(requestPort).toHaveBeenCalledTimes(1)
  })

  it('a Jade port already allowed is used without the chooser', async () => {
    ports.push(JADE_PORT)
    await mod.signWithJade(
      REQUEST,
      () => undefined,
      () => Promise.resolve(fakeLwk()),
    )
    expect(requestPort).not.toHaveBeenCalled()
  })

  it('no Web Serial, no Jade chosen, not allowed: said before LWK is even loaded', async () => {
    const loadLwk = vi.fn(() => Promise.resolve(fakeLwk()))
    requestPort.mockImplementationOnce(() =>
      Promise.reject(new DOMException('No port selected by the user.', 'NotFoundError')),
    )
    expect(await failure(mod.signWithJade(REQUEST, () => undefined, loadLwk))).toBe('no_device')
    requestPort.mockImplementationOnce(() =>
      Promise.reject(new DOMException('Access denied.', 'SecurityError')),
    )
    expect(await failure(mod.signWithJade(REQUEST, () => undefined, loadLwk))).toBe('not_allowed')
    vi.stubGlobal('navigator', {})
    expect(await failure(mod.signWithJade(REQUEST, () => undefined, loadLwk))).toBe('no_serial')
    expect(loadLwk).not.toHaveBeenCalled()
  })

  it('LWK not loading, and a port that will not open', async () => {
    expect(
      await failure(
        mod.signWithJade(
          REQUEST,
          () => undefined,
          () => Promise.reject(new Error('x')),
        ),
      ),
    ).toBe('load_failed')
    const busy = fakeLwk({ openFails: true })
    expect(
      await failure(
        mod.signWithJade(
          REQUEST,
          () => undefined,
          () => Promise.resolve(busy),
        ),
      ),
    ).toBe('busy')
  })

  it('locked: unlocked on the device (through the PIN server), then signs; a wrong PIN is locked, nothing signed', async () => {
    const lwk = (): Promise<Lwk> => Promise.resolve(fakeLwk())
    device.state = 'LOCKED'
    device.unlock = 'wrong_pin'
    const steps: string[] = []
    expect(await failure(mod.signWithJade(REQUEST, (s) => steps.push(s), lwk))).toBe('locked')
    expect(steps).toContain('unlocking')
    expect(asked.some((a) => a.startsWith('sign'))).toBe(false)
    // The same Jade is kept (LWK answered): the person tries the PIN again.
    device.unlock = 'ok'
    steps.length = 0
    expect(await mod.signWithJade(REQUEST, (s) => steps.push(s), lwk)).toBe('c2lnbmVk')
    expect(steps).toEqual(['choosing', 'loading', 'connecting', 'unlocking', 'checking', 'confirm_on_device'])
    expect(opened).toBe(1)
  })

  it('an unlock nobody finishes in 3 minutes is locked, and the next try opens a port afresh', async () => {
    vi.useFakeTimers()
    const lwk = (): Promise<Lwk> => Promise.resolve(fakeLwk())
    device.state = 'LOCKED'
    device.unlock = 'never'
    const pending = failure(mod.signWithJade(REQUEST, () => undefined, lwk))
    await vi.advanceTimersByTimeAsync(179_000)
    expect(asked.at(-1)).toBe('getMasterXpub')
    await vi.advanceTimersByTimeAsync(1_001)
    expect(await pending).toBe('locked')
    vi.useRealTimers()
    device.unlock = 'ok'
    await mod.signWithJade(REQUEST, () => undefined, lwk)
    expect(opened).toBe(2)
  })

  it('without a wallet: nothing is asked after its state', async () => {
    const lwk = (): Promise<Lwk> => Promise.resolve(fakeLwk())
    for (const [state, code] of [
      ['UNINIT', 'uninitialised'],
      ['UNSAVED', 'uninitialised'],
    ] as const) {
      device.state = state
      asked = []
      expect(await failure(mod.signWithJade(REQUEST, () => undefined, lwk))).toBe(code)
      expect(asked.filter((a) => a !== 'open regtest true')).toEqual(['getVersion'])
    }
    // An answer LWK cannot have given (not a known state) is no answer.
    device.state = 'SOMETHING'
    expect(await failure(mod.signWithJade(REQUEST, () => undefined, lwk))).toBe('not_responding')
  })

  it("another wallet's Jade is never asked to sign, and the next try opens a port afresh", async () => {
    const lwk = (): Promise<Lwk> => Promise.resolve(fakeLwk())
    device.fingerprint = '73c5da0a'
    expect(await failure(mod.signWithJade(REQUEST, () => undefined, lwk))).toBe('wrong_wallet')
    expect(asked.some((a) => a.startsWith('sign'))).toBe(false)
    device.fingerprint = '64eee54f'
    await mod.signWithJade(REQUEST, () => undefined, lwk)
    expect(opened).toBe(2)
  })

  it("a Jade opened for another profile's chain: busy (reconnect), then opened afresh for this one", async () => {
    const lwk = (): Promise<Lwk> => Promise.resolve(fakeLwk())
    await mod.signWithJade(REQUEST, () => undefined, lwk)
    expect(await failure(mod.signWithJade({ ...REQUEST, network: 'liquid' }, () => undefined, lwk))).toBe(
      'busy',
    )
    await mod.signWithJade({ ...REQUEST, network: 'liquid' }, () => undefined, lwk)
    expect(asked.filter((a) => a.startsWith('open'))).toEqual(['open regtest true', 'open liquid true'])
  })

  it('declined on the device: refused, and the same Jade is kept for the next try', async () => {
    const lwk = (): Promise<Lwk> => Promise.resolve(fakeLwk())
    device.refuse = true
    expect(await failure(mod.signWithJade(REQUEST, () => undefined, lwk))).toBe('refused')
    device.refuse = false
    await mod.signWithJade(REQUEST, () => undefined, lwk)
    expect(opened).toBe(1)
  })

  it('a Jade that does not answer in 20 s is not_responding, and the next try opens a port afresh', async () => {
    vi.useFakeTimers()
    const lwk = (): Promise<Lwk> => Promise.resolve(fakeLwk())
    device.silent = true
    const pending = failure(mod.signWithJade(REQUEST, () => undefined, lwk))
    await vi.advanceTimersByTimeAsync(19_000)
    expect(asked).toEqual(['open regtest true', 'getVersion'])
    await vi.advanceTimersByTimeAsync(1_001)
    expect(await pending).toBe('not_responding')
    vi.useRealTimers()
    device.silent = false
    await mod.signWithJade(REQUEST, () => undefined, lwk)
    expect(opened).toBe(2)
  })
})
