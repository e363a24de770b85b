/**
 * Thin adapter: electron-store as the profile service's `KeyValueStore`, in `<userData>/settings.json`.
 *
 * No JSON schema is passed to electron-store on purpose: the zod schemas in src/shared/profile.ts, applied by
 * src/main/profiles/service.ts to everything read back, are the one schema. A second one here would make a
 * hand-edited file throw at startup instead of being repaired entry by entry.
 *
 * electron-store 11 is ESM-only and main is built as CommonJS, hence the dynamic import and the async factory.
 */
import { join } from 'node:path'
import { app } from 'electron'
import { openRecoveringStore, type FileBackedStore } from '../profiles/store'

export const SETTINGS_STORE_NAME = 'settings'

export async function electronSettingsStore(): Promise<FileBackedStore> {
  const { default: ElectronStore } = await import('electron-store')
  const file = join(app.getPath('userData'), `${SETTINGS_STORE_NAME}.json`)
  const { store, warnings } = openRecoveringStore(
    () =>
      new ElectronStore<Record<string, unknown>>({
        name: SETTINGS_STORE_NAME,
        // Profile ids and setting names are plain keys; dot paths would let a key reach into another.
        accessPropertiesByDotNotation: false,
        // Holds base URLs and client ids: not secrets, but nobody else's business either.
        configFileMode: 0o600,
        clearInvalidConfig: false,
        watch: false,
      }),
    file,
  )
  return {
    warnings,
    get: (key) => store.get(key),
    // electron-store throws on undefined; the port's contract is that undefined means absent.
    set: (key, value) => (value === undefined ? store.delete(key) : store.set(key, value)),
    delete: (key) => store.delete(key),
  }
}
