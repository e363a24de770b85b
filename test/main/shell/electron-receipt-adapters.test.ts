/**
 * The Electron adapters of issue #14 against a recording stand-in of the few Electron APIs they use (vi.mock):
 * printing loads the receipt with JavaScript off and, for HTML, behind a CSP that allows no network; the save
 * dialog offers the receipt's own extension; a notification click focuses the window and opens the record.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'

const h = vi.hoisted(() => ({
  windows: [] as Array<{ options: unknown; loaded: string[]; destroyed: boolean; printed: number }>,
  saveOptions: [] as unknown[],
  notes: [] as Array<{ options: unknown; shown: boolean; emit: (e: string) => boolean }>,
  focused: 0,
}))

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events')
  class BrowserWindow {
    options: unknown
    loaded: string[] = []
    destroyed = false
    printed = 0
    webContents = {
      print: (_o: unknown, cb: (ok: boolean) => void) => {
        this.printed++
        cb(true)
      },
    }
    constructor(options: unknown) {
      this.options = options
      h.windows.push(this)
    }
    loadURL(url: string): Promise<void> {
      this.loaded.push(url)
      return Promise.resolve()
    }
    destroy(): void {
      this.destroyed = true
    }
    isMinimized(): boolean {
      return false
    }
    restore(): void {}
    show(): void {}
    focus(): void {
      h.focused++
    }
    static getFocusedWindow(): null {
      return null
    }
    static getAllWindows(): BrowserWindow[] {
      return h.windows as unknown as BrowserWindow[]
    }
  }
  class Notification extends Emitter {
    options: unknown
    shown = false
    constructor(options: unknown) {
      super()
      this.options = options
      h.notes.push(this)
    }
    show(): void {
      this.shown = true
    }
    static isSupported(): boolean {
      return true
    }
  }
  const dialog = {
    showSaveDialog: (o: unknown) => {
      h.saveOptions.push(o)
      return Promise.resolve({ canceled: false, filePath: '/tmp/x.pdf' })
    },
  }
  return { BrowserWindow, Notification, dialog }
})

const { printReceipt, chooseReceiptSavePath, RECEIPT_DOCUMENT_CSP } =
  await import('../../../src/main/shell/electron-receipt-dialogs')
const { electronNotifier } = await import('../../../src/main/shell/electron-notifier')
const electron = await import('electron')

beforeEach(() => {
  h.windows.length = 0
  h.saveOptions.length = 0
  h.notes.length = 0
  h.focused = 0
})

describe('Electron receipt adapters', () => {
  it('prints HTML in a hidden window with JavaScript off, behind a no-network CSP, then destroys it', async () => {
    expect(
      await printReceipt(Buffer.from('<html><img src="https://evil.example/x"></html>'), 'text/html'),
    ).toBe(true)
    const [win] = h.windows
    expect(win?.options).toMatchObject({ show: false, webPreferences: { javascript: false, sandbox: true } })
    const url = win?.loaded[0] ?? ''
    expect(url.startsWith('data:text/html;base64,')).toBe(true)
    const doc = Buffer.from(url.slice('data:text/html;base64,'.length), 'base64').toString()
    expect(
      doc.startsWith(`<meta http-equiv="Content-Security-Policy" content="${RECEIPT_DOCUMENT_CSP}">`),
    ).toBe(true)
    expect(RECEIPT_DOCUMENT_CSP).toContain("default-src 'none'")
    expect(win?.printed).toBe(1)
    expect(win?.destroyed).toBe(true)
  })

  it('the save dialog offers the receipt extension', async () => {
    expect(await chooseReceiptSavePath('comprovante-1.pdf')).toBe('/tmp/x.pdf')
    expect(h.saveOptions[0]).toEqual({
      defaultPath: 'comprovante-1.pdf',
      filters: [{ name: 'PDF', extensions: ['pdf'] }],
    })
  })

  it('a notification is shown; its click focuses the window and opens the record', () => {
    new electron.BrowserWindow({})
    const opened: string[] = []
    electronNotifier.show({ title: 'Pagamento efetuado', body: 'Pix enviado' }, () => opened.push('rec-1'))
    expect(h.notes[0]?.shown).toBe(true)
    expect(h.notes[0]?.options).toEqual({ title: 'Pagamento efetuado', body: 'Pix enviado' })
    h.notes[0]?.emit('click')
    expect(opened).toEqual(['rec-1'])
    expect(h.focused).toBe(1)
    expect(electronNotifier.supported()).toBe(true)
  })
})
