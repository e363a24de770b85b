/**
 * Electron shell ONLY: desktop notifications behind `NotifierPort` (src/main/notifications/port.ts). Tests under
 * Node use a recording stand-in; test/build/built-main.test.ts checks this wiring against a stand-in of Electron.
 */
import { BrowserWindow, Notification } from 'electron'
import type { NotifierPort } from '../notifications'

// Electron drops a notification's click handler once the object is collected: keep each until it closes.
const live = new Set<Notification>()

export const electronNotifier: NotifierPort = {
  supported: () => Notification.isSupported(),
  show: (n, onClick) => {
    const note = new Notification({ title: n.title, body: n.body })
    live.add(note)
    note.on('click', () => {
      const win = BrowserWindow.getAllWindows()[0]
      if (win) {
        if (win.isMinimized()) win.restore()
        win.show()
        win.focus()
      }
      onClick()
    })
    note.on('close', () => live.delete(note))
    note.show()
    return { close: () => note.close() }
  },
}
