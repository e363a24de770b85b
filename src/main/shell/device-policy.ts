/**
 * Which permissions and which devices the renderer may have (issue #28, "Jade over USB"). Electron-free and pure,
 * so every decision is tested under plain Node (test/main/shell/device-policy.test.ts); the shell only wires it
 * (src/main/shell/electron-devices.ts).
 *
 * The one device the app ever talks to is a Blockstream Jade, over Web Serial, from our own renderer: `serial`
 * is allowed only for the app's own origin and only for a port whose USB ids are Jade's. Everything else stays
 * denied, as before.
 */
import { JADE_USB_IDS } from '../../shared/jade'
import type { Language } from '../../shared/profile'
import { isAllowedSender } from './renderer-policy'

/** Permissions any page of ours may use without asking: copy buttons. */
const ALWAYS_ALLOWED = new Set(['clipboard-sanitized-write'])

/**
 * A USB id as Electron reports it: a number (device permission details) or its decimal string (the port list of
 * `select-serial-port`). Anything else — hex text, negative, beyond 16 bits, missing — is no id at all.
 */
export function usbId(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isInteger(raw) && raw >= 0 && raw <= 0xffff ? raw : null
  if (typeof raw !== 'string' || !/^\d{1,5}$/.test(raw)) return null
  return usbId(Number(raw))
}

export function isJadeDevice(
  device: { vendorId?: unknown; productId?: unknown } | null | undefined,
): boolean {
  if (!device) return false
  const vendorId = usbId(device.vendorId)
  const productId = usbId(device.productId)
  return JADE_USB_IDS.some((id) => id.vendorId === vendorId && id.productId === productId)
}

/**
 * `setPermissionCheckHandler` / `setPermissionRequestHandler`: copy buttons anywhere; `serial` only when the
 * asking page is our own renderer (app://treasury, or the dev server in development); nothing else.
 */
export function permissionAllowed(
  permission: string,
  origin: string | undefined,
  devServerUrl?: string,
): boolean {
  if (ALWAYS_ALLOWED.has(permission)) return true
  return permission === 'serial' && isAllowedSender(origin, devServerUrl)
}

/** `setDevicePermissionHandler`: a serial port of a Jade, for our own renderer; no HID, no USB, no other port. */
export function devicePermissionAllowed(
  details: { deviceType: string; origin: string; device: { vendorId?: unknown; productId?: unknown } },
  devServerUrl?: string,
): boolean {
  return (
    details.deviceType === 'serial' &&
    isAllowedSender(details.origin, devServerUrl) &&
    isJadeDevice(details.device)
  )
}

/** What Electron lists in `select-serial-port` (the fields used here). */
export interface ListedPort {
  portId: string
  portName?: string
  displayName?: string
  vendorId?: string
  productId?: string
  serialNumber?: string
}

const WORDS: Record<Language, { title: string; message: string; detail: string; cancel: string }> = {
  'pt-BR': {
    title: 'Assinar com a Jade',
    message: 'Escolha a Jade que vai assinar a transação.',
    detail: 'Só aparecem aqui aparelhos Jade conectados por USB.',
    cancel: 'Cancelar',
  },
  en: {
    title: 'Sign with the Jade',
    message: 'Choose the Jade that will sign the transaction.',
    detail: 'Only Jade devices connected over USB are listed here.',
    cancel: 'Cancel',
  },
}

export interface SerialChooser {
  /** Jade ports only, in the order of the buttons. */
  ports: ListedPort[]
  title: string
  message: string
  detail: string
  buttons: string[]
  cancelId: number
}

/**
 * Our own device chooser for `select-serial-port`: one button per Jade port (its name), then "Cancelar". Null
 * when no Jade is connected: the request is answered with no port (the renderer says "no Jade found").
 */
export function serialChooser(ports: readonly ListedPort[], language: Language): SerialChooser | null {
  const jades = ports.filter(isJadeDevice)
  if (jades.length === 0) return null
  const w = WORDS[language]
  const label = (p: ListedPort): string => {
    const name = p.displayName || 'Jade'
    return p.portName ? `${name} (${p.portName})` : name
  }
  return {
    ports: jades,
    title: w.title,
    message: w.message,
    detail: w.detail,
    buttons: [...jades.map(label), w.cancel],
    cancelId: jades.length,
  }
}

/** The port id to answer with for the chooser's button `response`: '' (no port) for Cancelar or anything else. */
export function chosenPortId(chooser: SerialChooser | null, response: number): string {
  if (!chooser || !Number.isInteger(response) || response < 0 || response >= chooser.cancelId) return ''
  return chooser.ports[response]?.portId ?? ''
}
