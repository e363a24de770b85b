/**
 * The rendered-text check: words of the other language on a page, outside "Detalhes técnicos" (ids, raw codes
 * and JSON live there on purpose). Curated lists of words that only one of the two languages uses on these
 * screens; a word shared by both (Pix, DePix, Sandbox, Liquid, CPF…) is in neither.
 */
import type { Page } from '@playwright/test'

/** English words that must not appear in pt-BR. */
const ENGLISH = [
  'withdrawal',
  'withdrawals',
  'payment',
  'payee',
  'refund',
  'refunded',
  'status',
  'sent',
  'unsent',
  'sending',
  'created',
  'expired',
  'error',
  'pending',
  'amount',
  'deposit',
  'fee',
  'deadline',
  'settings',
  'export',
  'review',
  'today',
  'loading',
  'copy',
  'the',
  'and',
  'with',
  'from',
  'profile',
  'details',
  'failed',
  'paid',
  'endpoint',
  'scopes',
  'secrets',
  'maintenance',
  'service',
  'under',
  'choose',
  'file',
  'chosen',
]

/** Portuguese words that must not appear in en. */
const PORTUGUESE = [
  'pagamento',
  'pagamentos',
  'retirada',
  'retiradas',
  'favorecido',
  'devolução',
  'devolvido',
  'reembolso',
  'tarifa',
  'prazo',
  'situação',
  'hoje',
  'valor',
  'enviar',
  'envie',
  'criado',
  'criada',
  'aguardando',
  'depósito',
  'configurações',
  'exportar',
  'revisão',
  'carregando',
  'copiar',
  'não',
  'para',
  'com',
  'pago',
  'chave',
  'perfil',
  'ainda',
  'dinheiro',
]

/**
 * Raw codes on screen (issue #26): snake_case (`em_analise`, `payee_mismatch`), CONSTANT_CASE (`BLOCKED_USER`) and API
 * paths (`withdraw-status`) anywhere outside "Detalhes técnicos" — code and monospace elements included, unlike the
 * word check. Data the analyst reads as data is left out: e-mail keys, file names, addresses and ids (which carry
 * no underscore words).
 */
export async function rawCodes(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => {
    const root = document.body.cloneNode(true) as HTMLElement
    for (const el of root.querySelectorAll('[data-technical], .lang, script, style')) el.remove()
    return root.innerText || root.textContent || ''
  })
  const prose = text.replace(/\S+@\S+/g, ' ').replace(/\S+\.(?:csv|xlsx|json|html|sqlite)\b/gi, ' ')
  const found = [
    ...(prose.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? []),
    ...(prose.match(/\b[A-Z]{2,}(?:_[A-Z]+)+\b/g) ?? []),
    ...(prose.match(/\b(?:withdraw-status|deposit-status|user-info)\b/g) ?? []),
  ]
  return [...new Set(found)].map((c) => `code:${c}`)
}

export async function foreignWords(page: Page, lang: 'pt-BR' | 'en'): Promise<string[]> {
  const text = await page.evaluate(() => {
    const root = document.body.cloneNode(true) as HTMLElement
    // Technical details, raw codes shown beside their words, and the language picker's own names are exempt.
    for (const el of root.querySelectorAll('[data-technical], code, .mono, .lang, script, style')) el.remove()
    return root.innerText || root.textContent || ''
  })
  // E-mail Pix keys are data the analyst typed, not words of the interface.
  const prose = text.replace(/\S+@\S+/g, ' ')
  const words = new Set(prose.toLowerCase().match(/[\p{L}]+/gu) ?? [])
  const banned = lang === 'pt-BR' ? ENGLISH : PORTUGUESE
  return [...banned.filter((w) => words.has(w)), ...(await rawCodes(page))]
}
