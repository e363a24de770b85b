/**
 * Electron shell ONLY: the save dialog (local receipts, src/main/app/receipts-handlers.ts; PSETs for a signer,
 * src/main/app/wallet-pay-handlers.ts) and printing of local receipts.
 * Printing loads the stored bytes in a hidden window with JavaScript off and a CSP that allows no network, so a
 * receipt can neither run code nor call home while it is printed.
 */
import { BrowserWindow, dialog } from 'electron'

export async function chooseReceiptSavePath(defaultName: string): Promise<string | null> {
  // The file's kind from its extension (pdf, html, pset): the filter the dialog offers.
  const ext = /\.([a-z]+)$/.exec(defaultName)?.[1] ?? 'html'
  const options = {
    defaultPath: defaultName,
    filters: [{ name: ext.toUpperCase(), extensions: [ext] }],
  }
  const win = BrowserWindow.getFocusedWindow()
  const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options)
  return r.canceled || !r.filePath ? null : r.filePath
}

/** A CSP placed first in the document: everything after it (images, styles, frames) is held to it. */
export const RECEIPT_DOCUMENT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

export function withReceiptCsp(html: Buffer): Buffer {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${RECEIPT_DOCUMENT_CSP}">`
  return Buffer.concat([Buffer.from(meta), html])
}

export async function printReceipt(
  bytes: Buffer,
  mediaType: 'application/pdf' | 'text/html',
): Promise<boolean> {
  const win = new BrowserWindow({
    show: false,
    webPreferences: { javascript: false, sandbox: true, contextIsolation: true, nodeIntegration: false },
  })
  try {
    const body = mediaType === 'text/html' ? withReceiptCsp(bytes) : bytes
    await win.loadURL(`data:${mediaType};base64,${body.toString('base64')}`)
    return await new Promise<boolean>((resolve) => {
      win.webContents.print({}, (success) => resolve(success))
    })
  } finally {
    win.destroy()
  }
}
