/**
 * What main does with the OS for the renderer (src/shared/channels-shell.ts): its own folder dialog, whose answer
 * stays in main behind a one-use token (folder-tokens.ts), and opening an allowed https URL in the browser.
 */
import { isAbsolute } from 'node:path'
import type { shellChannels } from '../../shared/channels-shell'
import type { HandlersOf } from '../ipc/router'
import { isAllowedExternalUrl } from '../shell/renderer-policy'
import type { ShellDeps } from './deps'
import { AppError } from './errors'

export function shellHandlers(deps: ShellDeps): HandlersOf<typeof shellChannels> {
  return {
    'dialog:chooseFolder': async ({ purpose }) => {
      const profileId = deps.runtime().profile.id
      const folder = await deps.chooseDirectory(purpose)
      if (folder === null) return null
      if (!isAbsolute(folder)) throw new AppError('folder_invalid', 'The dialog returned no usable folder.')
      return { token: deps.folders.issue(folder, purpose, profileId), folder }
    },
    'shell:openExternal': async ({ url, localId }) => {
      const store = deps.runtime().withdrawals.store
      const receipt = localId ? (await store.get(localId))?.lastRemote?.['receiptUrl'] : undefined
      const known = typeof receipt === 'string' ? [receipt] : []
      if (!isAllowedExternalUrl(url, known)) return { opened: false }
      await deps.openExternal(url)
      return { opened: true }
    },
  }
}
