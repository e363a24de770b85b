/**
 * Thin adapter: Electron's `safeStorage` as a `VaultCrypto`. All vault logic (basic_text refusal, file format,
 * corruption handling) is in ./vault.ts and runs under plain Node in tests. Call after `app` is ready: before
 * that, Linux reports encryption unavailable and the vault would fall back to memory.
 */
import { safeStorage } from 'electron'
import type { VaultCrypto } from './vault'

export function safeStorageCrypto(): VaultCrypto {
  return {
    isEncryptionAvailable: () => safeStorage.isEncryptionAvailable(),
    backend: () => {
      // Only Linux chooses among backends; elsewhere the platform keystore is the only one.
      if (process.platform === 'linux') return safeStorage.getSelectedStorageBackend()
      if (process.platform === 'win32') return 'dpapi'
      if (process.platform === 'darwin') return 'keychain'
      return 'unknown'
    },
    encryptString: (s) => safeStorage.encryptString(s),
    decryptString: (b) => safeStorage.decryptString(b),
  }
}
