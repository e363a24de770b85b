/**
 * "Assinar com a Jade (USB)" (issue #28): the PSET the app built and reviewed, signed by a Blockstream Jade over
 * Web Serial through LWK's own Jade code (lwk_wasm `Jade`), and handed back as base64 to `walletPay:import` — the
 * same checks as any signer's PSET (same transaction, same outputs). The Jade holds the key; the app never does.
 *
 * Each failure is a code named by the step that failed (never by an error's text): which step is known here, so
 * "no Jade chosen", "locked", "another wallet's Jade" and "refused on the device" are told apart without reading
 * LWK's messages.
 */
import { z } from 'zod'
import type { Jade } from 'lwk_wasm'
import { JADE_USB_IDS } from '../../../../../shared/jade'
import type { Lwk } from './lwk-in-renderer'

export const JADE_FAILURES = [
  /** no Web Serial in this window */
  'no_serial',
  /** no Jade chosen: none connected, or Cancelar in the chooser */
  'no_device',
  /** the app's window may not use the port */
  'not_allowed',
  /** LWK did not load */
  'load_failed',
  /** the port would not open: in use by another program, or unplugged */
  'busy',
  /** the Jade did not answer in time */
  'not_responding',
  /** the Jade was not unlocked: wrong PIN, cancelled on the device, or the PIN server did not answer */
  'locked',
  /** the Jade has no wallet yet */
  'uninitialised',
  /** the Jade's key is not one this PSET needs */
  'wrong_wallet',
  /** the Jade did not sign: refused on the device, or could not sign this transaction */
  'refused',
] as const
export type JadeFailure = (typeof JADE_FAILURES)[number]

export class JadeSignError extends Error {
  constructor(
    readonly code: JadeFailure,
    override readonly cause?: unknown,
  ) {
    super(`jade_${code}`)
  }
}

/** What the panel shows while the Jade works. */
export type JadeStep = 'choosing' | 'loading' | 'connecting' | 'unlocking' | 'checking' | 'confirm_on_device'

export interface JadeSignRequest {
  /** the exported PSET (base64) */
  pset: string
  network: 'liquid' | 'testnet' | 'regtest'
  /** key fingerprints still missing a signature (main's `walletPay:export`) */
  signers: readonly string[]
}

/** The little of Web Serial used here (TypeScript's DOM library has none of it). */
interface SerialPortLike {
  getInfo(): { usbVendorId?: number; usbProductId?: number }
}
interface SerialLike {
  getPorts(): Promise<SerialPortLike[]>
  requestPort(options: {
    filters: Array<{ usbVendorId: number; usbProductId: number }>
  }): Promise<SerialPortLike>
}

const ANSWER_MS = 20_000
/** Typing the PIN on the Jade, and two round trips to the PIN server. */
const UNLOCK_MS = 180_000
/** The `cause` of a failure that is a wait given up: LWK may still be waiting on the port. */
const TIMED_OUT = 'timed_out'

/** `get_version_info`'s state (LWK's `JadeState`, serialized upper-case). */
const versionSchema = z.object({ JADE_STATE: z.enum(['UNINIT', 'UNSAVED', 'LOCKED', 'READY', 'TEMP']) })

const isJadePort = (p: SerialPortLike): boolean => {
  const info = p.getInfo()
  return JADE_USB_IDS.some((i) => i.vendorId === info.usbVendorId && i.productId === info.usbProductId)
}

/**
 * LWK 0.13.1's Jade cannot give its port back (no `disconnect`), so the one opened stays with this page and is
 * reused; after a failure that may leave it mid-answer it is dropped, and the next try opens the port afresh.
 */
let connected: { jade: Jade; network: JadeSignRequest['network'] } | null = null

export async function signWithJade(
  request: JadeSignRequest,
  onStep: (s: JadeStep) => void,
  loadLwk: () => Promise<Lwk> = () => import('./lwk-in-renderer').then((m) => m.loadLwkInRenderer()),
): Promise<string> {
  const serial = (navigator as Navigator & { serial?: SerialLike }).serial
  if (!serial) throw new JadeSignError('no_serial')
  onStep('choosing')
  // First, while the click's user activation lasts: the port (our chooser in main when none is allowed yet).
  if (connected === null && !(await serial.getPorts()).some(isJadePort)) {
    try {
      await serial.requestPort({
        filters: JADE_USB_IDS.map((i) => ({ usbVendorId: i.vendorId, usbProductId: i.productId })),
      })
    } catch (e) {
      throw new JadeSignError(domErrorName(e) === 'SecurityError' ? 'not_allowed' : 'no_device', e)
    }
  }
  onStep('loading')
  const lwk = await loadLwk().catch((e: unknown) => {
    throw new JadeSignError('load_failed', e)
  })
  onStep('connecting')
  if (connected !== null && connected.network !== request.network) {
    // Opened for another profile's chain, and LWK cannot give the port back: a reconnected cable is a new port.
    connected = null
    throw new JadeSignError('busy')
  }
  const jade = connected?.jade ?? (await open(lwk, request.network))
  connected = { jade, network: request.network }
  try {
    const version = versionSchema.safeParse(await answer(jade.getVersion()))
    if (!version.success) throw new JadeSignError('not_responding', version.error)
    const state = version.data.JADE_STATE
    if (state === 'UNINIT' || state === 'UNSAVED') throw new JadeSignError('uninitialised')
    let xpub: Awaited<ReturnType<Jade['getMasterXpub']>>
    if (state === 'LOCKED') {
      // The person types the PIN on the Jade; LWK relays its handshake to the PIN server through main.
      onStep('unlocking')
      xpub = await answer(jade.getMasterXpub(), UNLOCK_MS, 'locked')
      onStep('checking')
    } else {
      onStep('checking')
      xpub = await answer(jade.getMasterXpub())
    }
    const fingerprint = xpub.fingerprint()
    if (!request.signers.includes(fingerprint)) throw new JadeSignError('wrong_wallet')
    onStep('confirm_on_device')
    // No time limit: the person reads every output on the Jade's screen before confirming.
    const signed = await jade.sign(new lwk.Pset(request.pset)).catch((e: unknown) => {
      throw new JadeSignError('refused', e)
    })
    return signed.toString()
  } catch (e) {
    // Not answering (or answering garbage, or a wait given up) may leave LWK waiting on the port, and another
    // wallet's Jade has to make way for the right one (a new port): either way, open a port afresh next time.
    if (
      !(e instanceof JadeSignError) ||
      e.cause === TIMED_OUT ||
      e.code === 'not_responding' ||
      e.code === 'wrong_wallet'
    )
      connected = null
    throw e instanceof JadeSignError ? e : new JadeSignError('not_responding', e)
  }
}

async function open(lwk: Lwk, network: JadeSignRequest['network']): Promise<Jade> {
  const net =
    network === 'liquid'
      ? lwk.Network.mainnet()
      : network === 'testnet'
        ? lwk.Network.testnet()
        : lwk.Network.regtestDefault()
  try {
    // lwk_wasm's constructor is async (it opens the port): it returns a Promise of the Jade, whatever its
    // TypeScript declaration says. `true`: only Jade's USB ids, as main allows.
    return await (new lwk.Jade(net, true) as unknown as Promise<Jade>)
  } catch (e) {
    throw new JadeSignError('busy', e)
  }
}

/** A Jade request not answered in time, or failed, is `code` (by default: a Jade that is not answering). */
function answer<T>(p: Promise<T>, ms = ANSWER_MS, code: JadeFailure = 'not_responding'): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new JadeSignError(code, TIMED_OUT)), ms)
    p.then(
      (v) => {
        clearTimeout(timer)
        resolve(v)
      },
      (e: unknown) => {
        clearTimeout(timer)
        reject(new JadeSignError(code, e))
      },
    )
  })
}

/** A DOMException's name (a code, not a message): how Web Serial says why no port was given. */
function domErrorName(e: unknown): string | null {
  return typeof e === 'object' && e !== null && 'name' in e && typeof e.name === 'string' ? e.name : null
}
