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
  /**
   * Shows it; the handle (when the OS gives one) lets the service close a "to decide" notification once the
   * request was decided or rejected elsewhere, so no stale pop-up asks for a decision already taken. Anything
   * else returned (a stand-in's) is ignored.
   */
  show(n: DesktopNotification, onClick: () => void): unknown
}

export interface ShownNotification {
  close(): void
}
