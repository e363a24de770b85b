/**
 * The team ledger form's values and main's settings, both ways, and its refusals as sentences. The form checks
 * with the very schema main applies (`teamLedgerSettingsSchema`), so a field refused here is refused there with
 * the same code; what main refuses anyway (a stored password not valid for another server) lands on the same field.
 */
import {
  LOOPBACK_HOSTS,
  teamLedgerMessages,
  teamLedgerSettingsSchema,
  type TeamLedgerMessageCode,
  type TeamLedgerSettings,
  type TeamTlsMode,
} from '../../../../shared/team-ledger'
import type { Language } from '../../../../shared/profile'

export interface TeamFormValues {
  host: string
  port: string
  database: string
  role: string
  password: string
  tls: TeamTlsMode
  caPem: string
}

export type TeamFormField = keyof TeamFormValues

export const EMPTY_TEAM_FORM: TeamFormValues = {
  host: '',
  port: '5432',
  database: 'depix_team',
  role: '',
  password: '',
  tls: 'verify-full',
  caPem: '',
}

export function formOf(settings: TeamLedgerSettings | null): TeamFormValues {
  if (!settings) return { ...EMPTY_TEAM_FORM }
  return {
    host: settings.host,
    port: String(settings.port),
    database: settings.database,
    role: settings.role,
    password: '',
    tls: settings.tls,
    caPem: settings.caPem ?? '',
  }
}

export function isLoopback(host: string): boolean {
  return (LOOPBACK_HOSTS as readonly string[]).includes(host.trim())
}

function message(code: string, lang: Language): string {
  const known = Object.hasOwn(teamLedgerMessages, code) ? (code as TeamLedgerMessageCode) : 'invalid_value'
  return teamLedgerMessages[known][lang]
}

/** Field → sentence, from main's field paths (`settings.host`, `password`) or the schema's own. */
export function fieldMessages(
  fields: Record<string, string>,
  lang: Language,
): Partial<Record<TeamFormField, string>> {
  const out: Partial<Record<TeamFormField, string>> = {}
  for (const [path, code] of Object.entries(fields)) {
    const field = path.replace(/^settings\./, '') as TeamFormField
    if (field in EMPTY_TEAM_FORM) out[field] ??= message(code, lang)
  }
  return out
}

export type TeamFormCheck =
  | { ok: true; settings: TeamLedgerSettings; password: string | undefined }
  | { ok: false; errors: Partial<Record<TeamFormField, string>> }

/** What the form would send, or why not; `needPassword` when nothing is stored that could be reused. */
export function checkTeamForm(v: TeamFormValues, lang: Language, needPassword: boolean): TeamFormCheck {
  const port = /^\s*\d{1,5}\s*$/.test(v.port) ? Number(v.port) : Number.NaN
  const parsed = teamLedgerSettingsSchema.safeParse({
    host: v.host.trim(),
    port,
    database: v.database.trim(),
    role: v.role.trim(),
    tls: v.tls,
    caPem: v.caPem.trim() === '' ? null : v.caPem.trim(),
  })
  const fields: Record<string, string> = {}
  if (!parsed.success) {
    for (const issue of parsed.error.issues) fields[issue.path.map(String).join('.')] ??= issue.message
  }
  if (v.password === '' && needPassword) fields['password'] = 'password_required'
  if (v.password.length > 1024) fields['password'] = 'password_too_long'
  if (!parsed.success || Object.keys(fields).length > 0)
    return { ok: false, errors: fieldMessages(fields, lang) }
  return { ok: true, settings: parsed.data, password: v.password === '' ? undefined : v.password }
}
