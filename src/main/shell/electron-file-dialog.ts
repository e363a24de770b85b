/**
 * Electron shell ONLY: the OS file dialog behind `AppPorts.chooseFile` (a payee CSV to import). Main reads the
 * chosen file itself, as hostile (payees/csv.ts); the path never reaches the renderer. Tests answer with a file
 * they wrote.
 */
import { BrowserWindow, dialog } from 'electron'

export async function chooseFileWithDialog(_purpose: 'payees_import'): Promise<string | null> {
  const options = {
    properties: ['openFile' as const],
    filters: [
      { name: 'CSV', extensions: ['csv', 'txt'] },
      { name: '*', extensions: ['*'] },
    ],
  }
  const win = BrowserWindow.getFocusedWindow()
  const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options)
  return r.canceled ? null : (r.filePaths[0] ?? null)
}
