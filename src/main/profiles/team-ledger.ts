/**
 * Per connection profile, the optional team ledger connection (issue #16): settings in the key-value store under
 * `teamLedgers` (profile id → settings), the role's password in the vault under `teamLedgerPasswordKey(id)`.
 * Settings are validated with `teamLedgerSettingsSchema` on write and again on read back: an entry damaged or
 * hand-edited is reported once and ignored (the profile uses this computer's ledger), and left in the file for
 * whoever wants to repair it, like a damaged profile record.
 *
 * A stored password is only ever reused for the server it was typed for: saving or testing other settings without
 * a new password is refused unless host, port, role and TLS (mode and CA) are the ones stored with it, so a
 * settings change (or a hostile renderer) cannot send a stored password to another server or over weaker TLS.
 */
import type { z } from 'zod'
import {
  teamLedgerMessages,
  teamLedgerSettingsSchema,
  type TeamLedgerMessageCode,
  type TeamLedgerSettings,
  type TeamLedgerView,
} from '../../shared/team-ledger'
import { teamLedgerSecretKey, type Vault } from '../secrets/vault'
import type { KeyValueStore } from './store'

export const TEAM_LEDGERS_KEY = 'teamLedgers'
/** As `team:save`'s input schema (src/shared/channels-team.ts): the service does not rely on IPC having checked. */
const TEAM_PASSWORD_MAX_LENGTH = 1024

export type TeamLedgerWarning =
  | { code: 'team_ledgers_not_an_object' }
  /** Only the profile id (a valid slug) and message codes: never a stored value. */
  | { code: 'team_ledger_dropped'; id: string; fields: Record<string, string> }

/** Why a save was refused, by field, with the codes of `teamLedgerMessages`. */
export class TeamSettingsRefusal extends Error {
  constructor(readonly fields: Record<string, TeamLedgerMessageCode>) {
    super('Invalid team ledger settings')
    this.name = 'TeamSettingsRefusal'
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Field path → a code of `teamLedgerMessages`; zod's own English never gets through (→ invalid_value). */
function issueCodes(error: z.ZodError): Record<string, TeamLedgerMessageCode> {
  const out: Record<string, TeamLedgerMessageCode> = {}
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.') || '(input)'
    out[field] ??= Object.hasOwn(teamLedgerMessages, issue.message)
      ? (issue.message as TeamLedgerMessageCode)
      : 'invalid_value'
  }
  return out
}

/** The fields a stored password is bound to (see the module comment). */
export function sameServer(a: TeamLedgerSettings, b: TeamLedgerSettings): boolean {
  return (
    a.host.toLowerCase() === b.host.toLowerCase() &&
    a.port === b.port &&
    a.role === b.role &&
    a.tls === b.tls &&
    (a.caPem ?? '').trim() === (b.caPem ?? '').trim()
  )
}

export interface TeamLedgers {
  view(profileId: string): TeamLedgerView
  settings(profileId: string): TeamLedgerSettings | null
  /** The password to use with `settings`: the given one, or the stored one when `settings` is its server. */
  passwordFor(profileId: string, settings: TeamLedgerSettings, password?: string): string | null
  save(profileId: string, settings: unknown, password?: string): TeamLedgerView
  forget(profileId: string): void
  connection(profileId: string): { settings: TeamLedgerSettings; password: string } | null
  warnings(): readonly TeamLedgerWarning[]
}

export function createTeamLedgers(o: { store: KeyValueStore; vault: Vault }): TeamLedgers {
  const warnings: TeamLedgerWarning[] = []
  const valid = new Map<string, TeamLedgerSettings>()
  /** Entries we could not accept, written back untouched. */
  let raw: Record<string, unknown> = {}
  const stored = o.store.get(TEAM_LEDGERS_KEY)
  if (isPlainObject(stored)) {
    raw = stored
    for (const [id, entry] of Object.entries(stored)) {
      const parsed = teamLedgerSettingsSchema.safeParse(entry)
      if (parsed.success) {
        valid.set(id, parsed.data)
        continue
      }
      const fields = issueCodes(parsed.error)
      // The key itself came from the file: only a plausible slug is quoted in a warning.
      warnings.push({
        code: 'team_ledger_dropped',
        id: /^[a-z0-9-]{1,48}$/.test(id) ? id : '(invalid id)',
        fields,
      })
    }
  } else if (stored !== undefined) {
    warnings.push({ code: 'team_ledgers_not_an_object' })
  }

  const hasPassword = (id: string): boolean => o.vault.get(teamLedgerSecretKey(id)) !== null

  function persist(id: string, settings: TeamLedgerSettings | null): void {
    const next = { ...raw }
    if (settings === null) delete next[id]
    else next[id] = settings
    o.store.set(TEAM_LEDGERS_KEY, next)
    raw = next
    if (settings === null) valid.delete(id)
    else valid.set(id, settings)
  }

  const api: TeamLedgers = {
    view(id) {
      const settings = valid.get(id) ?? null
      return { settings: settings && structuredClone(settings), hasPassword: hasPassword(id) }
    },

    settings(id) {
      const s = valid.get(id)
      return s ? structuredClone(s) : null
    },

    passwordFor(id, settings, password) {
      if (password !== undefined) return password
      const current = valid.get(id)
      if (!current || !sameServer(current, settings)) return null
      return o.vault.get(teamLedgerSecretKey(id))
    },

    save(id, input, password) {
      const parsed = teamLedgerSettingsSchema.safeParse(input)
      if (!parsed.success) {
        throw new TeamSettingsRefusal(issueCodes(parsed.error))
      }
      const settings = parsed.data
      if (password === '' || api.passwordFor(id, settings, password) === null) {
        throw new TeamSettingsRefusal({ password: 'password_required' })
      }
      if (password !== undefined && password.length > TEAM_PASSWORD_MAX_LENGTH) {
        throw new TeamSettingsRefusal({ password: 'password_too_long' })
      }
      const key = teamLedgerSecretKey(id)
      const previous = o.vault.get(key)
      // Password first: the settings never appear without one; if they cannot be saved, the old one is put back.
      if (password !== undefined) o.vault.set(key, password)
      try {
        persist(id, settings)
      } catch (e) {
        if (previous === null) o.vault.delete(key)
        else o.vault.set(key, previous)
        throw e
      }
      return api.view(id)
    },

    forget(id) {
      // Password first: settings without a password are harmless (the runtime stays on this computer's ledger).
      o.vault.delete(teamLedgerSecretKey(id))
      if (Object.hasOwn(raw, id)) persist(id, null)
    },

    connection(id) {
      const settings = valid.get(id)
      const password = o.vault.get(teamLedgerSecretKey(id))
      return settings && password !== null ? { settings: structuredClone(settings), password } : null
    },

    warnings() {
      return Object.freeze([...warnings])
    },
  }
  return api
}
