/**
 * One change to the team's settings as the audit chain recorded it (migration 14, issue #31): who changed the
 * approval threshold, a rate allowance or an analyst, when, from what to what. Shown in Configurações → Livro-caixa
 * da equipe and by the owner's `team-ledger status`; the words are here so both say the same.
 */
import { z } from 'zod'
import { formatBRL, type MoneyLocale } from './money'

const cents = z.number().int().nonnegative().refine(Number.isSafeInteger).nullable()
const base = { seq: z.number().int().positive(), at: z.string().max(40), by: z.string().max(63) }
const ANALYST_STATES = ['absent', 'active', 'no_login', 'outside'] as const
type AnalystState = (typeof ANALYST_STATES)[number]

export const settingChangeSchema = z.discriminatedUnion('kind', [
  z.object({ ...base, kind: z.literal('threshold'), before: cents, after: cents }),
  z.object({
    ...base,
    kind: z.literal('rate'),
    endpoint: z.string().max(40),
    before: z.string().max(20),
    after: z.string().max(20),
  }),
  z.object({
    ...base,
    kind: z.literal('analyst'),
    role: z.string().max(63),
    before: z.enum(ANALYST_STATES),
    after: z.enum(ANALYST_STATES),
  }),
])
export type SettingChange = z.infer<typeof settingChangeSchema>

const threshold = (v: number | null, l: MoneyLocale): string =>
  v === null
    ? l === 'pt-BR'
      ? 'sem aprovação'
      : 'no approval'
    : `${l === 'pt-BR' ? 'acima de' : 'above'} ${formatBRL(v, l)}`

const perMinute = (v: string, l: MoneyLocale): string =>
  `${l === 'pt-BR' ? v.replace('.', ',') : v}${l === 'pt-BR' ? ' por minuto' : ' a minute'}`

/** What each endpoint's allowance paces, in the words of the screens (an unknown name is shown as it is). */
const endpointWords: Record<string, Record<MoneyLocale, string>> = {
  ping: { 'pt-BR': 'verificação do serviço', en: 'service checks' },
  deposit: { 'pt-BR': 'compras de DePix', en: 'DePix purchases' },
  deposits: { 'pt-BR': 'listas de compras', en: 'purchase lists' },
  'deposit-status': { 'pt-BR': 'consultas de compras', en: 'purchase status checks' },
  withdraw: { 'pt-BR': 'pagamentos', en: 'payments' },
  'withdraw-status': { 'pt-BR': 'consultas de pagamentos', en: 'payment status checks' },
  'user-info': { 'pt-BR': 'dados da conta', en: 'account details' },
}

const analystWords: Record<AnalystState, Record<MoneyLocale, string>> = {
  absent: { 'pt-BR': 'inexistente', en: 'absent' },
  active: { 'pt-BR': 'ativo', en: 'active' },
  no_login: { 'pt-BR': 'sem acesso', en: 'cannot log in' },
  outside: { 'pt-BR': 'fora do grupo dos analistas', en: 'outside the analysts’ group' },
}

/** "depix_owner mudou o limite de aprovação: acima de R$ 5.000,00 → acima de R$ 10.000,00" (no date). */
export function describeSettingChange(c: SettingChange, l: MoneyLocale): string {
  const pt = l === 'pt-BR'
  if (c.kind === 'threshold') {
    return `${c.by} ${pt ? 'mudou o limite de aprovação' : 'changed the approval threshold'}: ${threshold(c.before, l)} → ${threshold(c.after, l)}`
  }
  if (c.kind === 'rate') {
    const what = endpointWords[c.endpoint]?.[l] ?? c.endpoint
    return `${c.by} ${pt ? `mudou a cota da equipe para ${what}` : `changed the team allowance for ${what}`}: ${perMinute(c.before, l)} → ${perMinute(c.after, l)}`
  }
  const verb =
    c.after === 'active'
      ? pt
        ? 'incluiu o analista'
        : 'added analyst'
      : pt
        ? 'removeu o analista'
        : 'removed analyst'
  return `${c.by} ${verb} ${c.role}: ${analystWords[c.before][l]} → ${analystWords[c.after][l]}`
}
