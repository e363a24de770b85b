/**
 * Electron shell ONLY: the session's permission handlers and the serial-port chooser (issue #28, "Jade over USB").
 * Every decision is src/main/shell/device-policy.ts; this file hands Electron's arguments to it and shows the
 * chooser as a native dialog.
 */
import { BrowserWindow, dialog, type Session } from 'electron'
import type { Language } from '../../shared/profile'
import { chosenPortId, devicePermissionAllowed, permissionAllowed, serialChooser } from './device-policy'
import { isAllowedSender } from './renderer-policy'

export function installDevicePolicy(
  ses: Session,
  o: { devServerUrl?: string | undefined; language: () => Language },
): void {
  ses.setPermissionRequestHandler((wc, permission, callback, details) =>
    callback(permissionAllowed(permission, details.requestingUrl ?? wc.getURL(), o.devServerUrl)),
  )
  ses.setPermissionCheckHandler((wc, permission, requestingOrigin, details) =>
    permissionAllowed(permission, details.securityOrigin ?? requestingOrigin ?? wc?.getURL(), o.devServerUrl),
  )
  ses.setDevicePermissionHandler((details) => devicePermissionAllowed(details, o.devServerUrl))
  ses.on('select-serial-port', (event, portList, webContents, callback) => {
    event.preventDefault()
    const chooser = isAllowedSender(webContents.getURL(), o.devServerUrl)
      ? serialChooser(portList, o.language())
      : null
    if (!chooser) {
      callback('')
      return
    }
    const options = {
      type: 'question' as const,
      title: chooser.title,
      message: chooser.message,
      detail: chooser.detail,
      buttons: chooser.buttons,
      cancelId: chooser.cancelId,
      defaultId: chooser.cancelId,
      noLink: true,
    }
    const win = BrowserWindow.fromWebContents(webContents)
    void (win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options)).then(
      (r) => callback(chosenPortId(chooser, r.response)),
      () => callback(''),
    )
  })
}
