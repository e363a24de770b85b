/**
 * Electron shell ONLY: the OS file dialog behind `AppPorts.chooseFile` (a payee CSV, a signed PSET). Main reads the
 * chosen file itself, as hostile (payees/csv.ts); the path never reaches the renderer. Tests answer with a file
 * they wrote.
 */
import { BrowserWindow, dialog } from 'electron'

export async function chooseFileWithDialog(purpose: 'payees_import' | 'pset_import'): Promise<string | null> {
  const kind =
    purpose === 'pset_import'
      ? { name: 'PSET', extensions: ['pset', 'psbt', 'txt'] }
      : { name: 'CSV', extensions: ['csv', 'txt'] }
  const options = {
    properties: ['openFile' as const],
    filters: [kind, { name: '*', extensions: ['*'] }],
  }
  const win = BrowserWindow.getFocusedWindow()
  const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options)
  return r.canceled ? null : (r.filePaths[0] ?? null)
}
