/**
 * Electron shell ONLY: the OS folder dialog behind `AppPorts.chooseDirectory`. Tests replace it with a fake that
 * answers a queued temp folder. Exports may create a folder in the dialog; a review only opens an existing one.
 */
import { BrowserWindow, dialog } from 'electron'
import type { FolderPurpose } from '../app/folder-tokens'

export async function chooseFolderWithDialog(purpose: FolderPurpose): Promise<string | null> {
  const properties: Array<'openDirectory' | 'createDirectory'> =
    purpose === 'export' ? ['openDirectory', 'createDirectory'] : ['openDirectory']
  const win = BrowserWindow.getFocusedWindow()
  const r = win
    ? await dialog.showOpenDialog(win, { properties })
    : await dialog.showOpenDialog({ properties })
  return r.canceled ? null : (r.filePaths[0] ?? null)
}
