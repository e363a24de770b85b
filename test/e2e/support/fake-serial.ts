/**
 * A fake `navigator.serial` in the page, its one port's streams wired to a FakeJade in the test process: what the
 * renderer writes goes to the fake device, whose replies come back through the port's readable stream in small
 * chunks, as a USB-serial link delivers them (LWK reassembles a reply across reads). `requestPort` stands for
 * main's chooser (src/main/shell/electron-devices.ts, tested on the built main): it hands out the Jade or, when
 * the test says none is connected / Cancelar was pressed, rejects as Chromium does with a `NotFoundError`.
 * `window.__fakeSerialUnplug()` takes the port away (a new device is a new port).
 */
import type { Page } from '@playwright/test'
import type { FakeJade } from './fake-jade'

export interface FakeSerial {
  /** which Jade is plugged in now; null: none (the chooser answers with no port) */
  device: FakeJade | null
  /** the filters each `requestPort` was called with */
  requests: unknown[]
  /** the baud rate each `open` asked for */
  opened: number[]
}

/** Installs the fake for the page's next load (the caller reloads the page). */
export async function installFakeSerial(page: Page, device: FakeJade | null): Promise<FakeSerial> {
  const fake: FakeSerial = { device, requests: [], opened: [] }
  await page.exposeBinding('__fakeSerialRequest', (_s, filters: unknown) => {
    fake.requests.push(filters)
    return fake.device !== null
  })
  await page.exposeBinding('__fakeSerialOpened', (_s, baudRate: number) => {
    fake.opened.push(baudRate)
  })
  await page.exposeBinding('__fakeSerialWrite', (_s, base64: string) => {
    if (fake.device === null) return []
    const replies = fake.device.receive(Buffer.from(base64, 'base64'))
    // Delivered in 64-byte pieces, as a serial link would.
    return replies.flatMap((r) => {
      const pieces: string[] = []
      for (let i = 0; i < r.length; i += 64)
        pieces.push(Buffer.from(r.subarray(i, i + 64)).toString('base64'))
      return pieces
    })
  })
  await page.addInitScript(() => {
    const w = window as unknown as {
      __fakeSerialRequest: (filters: unknown) => Promise<boolean>
      __fakeSerialOpened: (baudRate: number) => Promise<void>
      __fakeSerialWrite: (base64: string) => Promise<string[]>
      SerialPort?: { prototype: object }
      __fakeSerialUnplug?: () => void
    }
    const toBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes))
    const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
    // wasm-bindgen checks `instanceof SerialPort`: the fake port is one when the browser has the interface.
    if (typeof w.SerialPort !== 'function') w.SerialPort = class SerialPort {}
    let port: object | null = null
    const makePort = (): object => {
      let readable: ReadableStream<Uint8Array> | null = null
      let writable: WritableStream<Uint8Array> | null = null
      const p = Object.create((w.SerialPort as { prototype: object }).prototype) as object
      Object.defineProperties(p, {
        readable: { get: () => readable },
        writable: { get: () => writable },
        getInfo: { value: () => ({ usbVendorId: 0x10c4, usbProductId: 0xea60 }) },
        open: {
          value: async (options: { baudRate: number }) => {
            if (readable !== null) throw new DOMException('The port is already open.', 'InvalidStateError')
            await w.__fakeSerialOpened(options.baudRate)
            let controller: ReadableStreamDefaultController<Uint8Array> | null = null
            readable = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) })
            writable = new WritableStream<Uint8Array>({
              write: async (chunk) => {
                for (const piece of await w.__fakeSerialWrite(toBase64(chunk)))
                  controller?.enqueue(fromBase64(piece))
              },
            })
          },
        },
        close: { value: () => Promise.resolve() },
      })
      return p
    }
    const serial = {
      getPorts: () => Promise.resolve(port === null ? [] : [port]),
      requestPort: async (options: unknown) => {
        if (!(await w.__fakeSerialRequest(options)))
          throw new DOMException('No port selected by the user.', 'NotFoundError')
        port ??= makePort()
        return port
      },
    }
    Object.defineProperty(Navigator.prototype, 'serial', { get: () => serial, configurable: true })
    // The device goes away: its port is no longer listed, and the next one is a new port, chosen again.
    w.__fakeSerialUnplug = () => {
      port = null
    }
  })
  return fake
}
