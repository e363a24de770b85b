/**
 * The desktop-notification port. The Electron adapter (src/main/shell/electron-notifier.ts) shows an OS
 * notification; tests use a recording stand-in. `onClick` opens the record in the app.
 */
export interface DesktopNotification {
  title: string
  body: string
}

export interface NotifierPort {
  /** False where the OS has no notification support: nothing is shown and nothing is marked as sent. */
  supported(): boolean
  show(n: DesktopNotification, onClick: () => void): void
}
