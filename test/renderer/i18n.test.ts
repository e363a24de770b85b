import { describe, expect, it } from 'vitest'
import { KNOWN_REFUND_REASONS } from '../../src/renderer/src/components/detail/raw'
import { namespaces } from '../../src/renderer/src/i18n/locales'
import { LOCAL_STATE_WORDS, refundReasonInWords, statusInWords } from '../../src/shared/status-words'
import { LOCAL_STATES } from '../../src/shared/withdrawal-record'
import { KNOWN_STATUSES } from '../../src/shared/withdrawal-status'

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix]
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k))
}

/** Every leaf text of one language, with its key. */
function leaves(value: unknown, prefix = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[prefix, value]]
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k))
}

const all = (lang: 'pt-BR' | 'en'): Array<[string, string]> =>
  Object.entries(namespaces).flatMap(([ns, texts]) => leaves(texts[lang], ns))

/**
 * English words that have no business in a pt-BR text (docs/GLOSSARY.md). Curated rather than a dictionary:
 * names (DePix, Pix, Liquid, Sandbox, CPF, SHA-256, JSON, CSV) and key names (Enter, Home, End) are fine.
 */
const ENGLISH = [
  'the',
  'and',
  'of',
  'with',
  'your',
  'you',
  'is',
  'are',
  'not',
  'withdrawal',
  'withdrawals',
  'refund',
  'refunded',
  'status',
  'payout',
  'fee',
  'fees',
  'deadline',
  'receiver',
  'payee',
  'beneficiary',
  'amount',
  'deposit',
  'address',
  'request',
  'error',
  'failed',
  'pending',
  'sent',
  'unsent',
  'created',
  'manifest',
  'says',
  'hash',
  'log',
  'loading',
  'settings',
  'copy',
  'copied',
  'check',
  'profile',
  'cancel',
  'back',
  'yes',
  'none',
  'unknown',
  'outcome',
  'initiatedBy',
  'feeInCents',
  'amountInCents',
  'invalid_pix_key',
  'messageCode',
  'denialCode',
  'X-Request-ID',
  'POST',
  'WITHDRAW_NOT_FOUND',
  // Issue #16: four-eyes approval.
  'approval',
  'approve',
  'approved',
  'reject',
  'rejected',
  'requester',
  'approver',
  'team',
]
/** pt-BR words retired by the glossary: owner's draw, cash-out, reimbursement, other names for the payee or fee. */
const RETIRED = [
  'retirada',
  'retiradas',
  'saque',
  'saques',
  'reembolso',
  'reembolsado',
  'recebedor',
  'beneficiário',
  'taxa',
]
/** Portuguese words that have no business in an English text. */
const PORTUGUESE = [
  'não',
  'sim',
  'você',
  'para',
  'pagamento',
  'pagamentos',
  'retirada',
  'devolução',
  'favorecido',
  'tarifa',
  'prazo',
  'situação',
  'depósito',
  'endereço',
  'valor',
  'chave',
  'registro',
  'registros',
  'pedido',
  'criado',
  'aguardando',
  'pago',
  'devolvido',
  'expirado',
  'cancelado',
  'reconhecida',
  'carteira',
  'copia',
  // Issue #16: four-eyes approval.
  'aprovação',
  'aprovar',
  'aprovado',
  'recusar',
  'recusado',
  'solicitante',
  'aprovador',
  'equipe',
]

/** English synonyms the glossary retired: one English term per concept too. */
const EN_RETIRED = ['receiver', 'beneficiary', 'reimbursement', 'reimbursed']

/** Whole-word matches (letters with accents count as letters), case-insensitive. */
function wordsIn(raw: string, words: readonly string[]): string[] {
  // Placeholders ({{amount}}) are code, not words.
  const text = raw.replace(/\{\{[^}]*\}\}/g, ' ')
  return words.filter((w) =>
    new RegExp(
      `(?<![\\p{L}\\p{N}_])${w.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&')}(?![\\p{L}\\p{N}_])`,
      'iu',
    ).test(text),
  )
}

/** Texts that are names in their own language, not translations. */
const OWN_NAMES = /^common\.language\./

describe('translations', () => {
  for (const [ns, texts] of Object.entries(namespaces)) {
    it(`${ns}: pt-BR and en have the same keys, none empty`, () => {
      expect(keys(texts.en).sort()).toEqual(keys(texts['pt-BR']).sort())
      for (const lang of ['pt-BR', 'en'] as const) {
        const flat = JSON.stringify(texts[lang])
        expect(flat).not.toContain('""')
      }
    })
  }

  it('pt-BR says nothing in English and uses none of the retired terms', () => {
    const hits = all('pt-BR')
      .filter(([k]) => !OWN_NAMES.test(k))
      .flatMap(([k, v]) => wordsIn(v, [...ENGLISH, ...RETIRED]).map((w) => `${k}: "${w}" in "${v}"`))
    expect(hits).toEqual([])
  })

  it('en says nothing in Portuguese, and calls the person paid the payee', () => {
    const hits = all('en')
      .filter(([k]) => !OWN_NAMES.test(k))
      .flatMap(([k, v]) => wordsIn(v, [...PORTUGUESE, ...EN_RETIRED]).map((w) => `${k}: "${w}" in "${v}"`))
    expect(hits).toEqual([])
  })

  it('the word check itself catches what it should (so a pass means something)', () => {
    expect(wordsIn('Retirada para a chave', RETIRED)).toEqual(['retirada'])
    expect(wordsIn('Status: sent', ENGLISH)).toEqual(['status', 'sent'])
    expect(wordsIn('manifesto', ENGLISH)).toEqual([])
    expect(wordsIn('O valor não confere', PORTUGUESE)).toEqual(['não', 'valor'])
  })

  it('every API status, local state and refund reason has words in both languages', () => {
    for (const lang of ['pt-BR', 'en'] as const) {
      const st = namespaces.status[lang]
      for (const s of KNOWN_STATUSES) {
        expect(st.remote[s], `${lang} status ${s}`).toMatch(/\p{L}{3}/u)
        expect(st.hint[s], `${lang} hint ${s}`).toMatch(/\p{L}{3}/u)
        expect(statusInWords(s, false, lang)).toBe(st.remote[s])
      }
      for (const s of LOCAL_STATES) {
        expect(st.local[s], `${lang} local ${s}`).toBe(LOCAL_STATE_WORDS[lang][s])
        expect(st.state[s], `${lang} state ${s}`).toMatch(/\p{L}{3}/u)
      }
      for (const r of KNOWN_REFUND_REASONS) {
        expect(namespaces.detail[lang].refund.reasons[r], `${lang} reason ${r}`).toMatch(/\p{L}{3}/u)
        expect(refundReasonInWords(r, lang)).toBe(namespaces.detail[lang].refund.reasons[r])
      }
    }
    // Words never leak the code they translate.
    expect(namespaces.status['pt-BR'].remote.sent).toBe('Pago')
    expect(namespaces.status['pt-BR'].remote.refunded).toBe('Devolvido')
  })

  it('an unknown status or reason says so in words, with the raw code beside it', () => {
    expect(statusInWords('em_analise', false, 'pt-BR')).toBe('Situação não reconhecida (em_analise)')
    expect(statusInWords('em_analise', false, 'en')).toBe('Unrecognised status (em_analise)')
    expect(statusInWords('__proto__', false, 'pt-BR')).toBe('Situação não reconhecida (__proto__)')
    expect(statusInWords('sent', true, 'pt-BR')).toBe('Pago, com devolução')
    expect(statusInWords('refunded', true, 'en')).toBe('Refunded')
    expect(refundReasonInWords('new_reason', 'pt-BR')).toBe('Motivo não reconhecido (new_reason)')
    expect(namespaces.status['pt-BR'].unknownStatus).toBe('Situação não reconhecida ({{code}})')
    expect(namespaces.status.en.unknownStatus).toBe('Unrecognised status ({{code}})')
  })
})
