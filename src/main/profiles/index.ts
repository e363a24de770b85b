export {
  createProfileService,
  ProfileError,
  PROFILES_KEY,
  SANDBOX_DEFAULT_NETWORK,
  SANDBOX_PROFILE_NAME,
  SETTINGS_KEY,
  type ProfileCredentials,
  type ProfileErrorCode,
  type ProfileService,
  type ProfileWarning,
  type SandboxInfo,
} from './service'
export { TEAM_LEDGERS_KEY, TeamSettingsRefusal, type TeamLedgerWarning } from './team-ledger'
export {
  createJsonFileStore,
  openRecoveringStore,
  type FileBackedStore,
  type KeyValueStore,
  type StoreWarning,
} from './store'
