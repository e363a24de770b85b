import { describe, expect, it } from 'vitest'
import { badgeModel } from '../../src/renderer/src/components/StatusBadge'
import { status } from '../../src/renderer/src/i18n/locales/status'
import { KNOWN_STATUSES } from '../../src/shared/withdrawal-status'
import { LOCAL_STATES } from '../../src/shared/withdrawal-record'

describe('badgeModel', () => {
  it('speaks the known remote statuses in words, with the category color', () => {
    expect(badgeModel('unsent', 'created', false)).toMatchObject({
      label: { kind: 'remote', key: 'unsent' },
      category: 'awaiting_funding',
    })
    expect(badgeModel('sent', 'created', false)).toMatchObject({ label: { key: 'sent' }, category: 'paid' })
    expect(badgeModel('REFUNDED', 'created', true)).toMatchObject({
      label: { key: 'refunded' },
      category: 'refunded',
      refundSuffix: false,
    })
    expect(badgeModel('Canceled', 'created', false)).toMatchObject({
      label: { key: 'cancelled' },
      category: 'cancelled',
    })
  })

  it('shows unknown statuses raw, exactly as sent, and never throws', () => {
    expect(badgeModel('on_hold_by_bank', 'created', false)).toEqual({
      label: { kind: 'raw', text: 'on_hold_by_bank' },
      category: 'unknown',
      refundSuffix: false,
      hint: 'unknown',
    })
    for (const weird of ['', '   ', '🙂', 'constructor', '__proto__', 'toString', 'x'.repeat(500)]) {
      expect(() => badgeModel(weird, 'created', false)).not.toThrow()
    }
  })

  it('lets a refund win the color and says so when the status does not', () => {
    expect(badgeModel('error', 'created', true)).toMatchObject({
      label: { kind: 'remote', key: 'error' },
      category: 'refunded',
      refundSuffix: true,
    })
  })

  it('uses the local state until the service created the withdrawal', () => {
    expect(badgeModel(null, 'submitting', false)).toMatchObject({
      label: { kind: 'local', key: 'submitting' },
    })
    expect(badgeModel(null, 'outcome_unknown', false)).toMatchObject({ category: 'attention' })
    expect(badgeModel(null, 'rejected', false)).toMatchObject({ category: 'rejected' })
    expect(badgeModel(null, 'not_created', false)).toMatchObject({ category: 'cancelled' })
    expect(badgeModel(null, 'created', false)).toMatchObject({ label: { kind: 'local', key: 'created' } })
    expect(badgeModel('', 'created', false)).toMatchObject({ label: { kind: 'local', key: 'created' } })
    expect(badgeModel(null, 'brand_new_state', false)).toMatchObject({
      label: { kind: 'raw', text: 'brand_new_state' },
      category: 'unknown',
    })
  })

  it('has words and a hint for every known status and local state, in both languages', () => {
    for (const lang of ['pt-BR', 'en'] as const) {
      const t = status[lang] as unknown as {
        remote: Record<string, string>
        local: Record<string, string>
        hint: Record<string, string>
      }
      for (const s of KNOWN_STATUSES) {
        expect(t.remote[s]).toBeTruthy()
        expect(t.hint[s]).toBeTruthy()
      }
      for (const s of LOCAL_STATES) {
        expect(t.local[s]).toBeTruthy()
        expect(t.hint[s]).toBeTruthy()
      }
      expect(t.hint['unknown']).toBeTruthy()
    }
    expect(status['pt-BR'].remote.unsent).toBe('Aguardando depósito')
    expect(status['pt-BR'].remote.sent).toBe('Pago')
    expect(status['pt-BR'].remote.refunded).toBe('Devolvido')
  })
})

describe('StatusBadge text', () => {
  it('an unknown status reads "Situação não reconhecida (code)", never the code followed by "?"', async () => {
    const { renderToStaticMarkup } = await import('react-dom/server')
    const { createElement } = await import('react')
    const { StatusBadge } = await import('../../src/renderer/src/components/StatusBadge')
    const { default: i18n } = await import('../../src/renderer/src/i18n')
    await i18n.changeLanguage('pt-BR')
    const html = renderToStaticMarkup(
      createElement(StatusBadge, { status: 'em_analise', localState: 'created', hasRefund: false }),
    )
    const text = html.replace(/<[^>]+>/g, '')
    // The words on screen; the service's code only on hover and in the attribute (and in Detalhes técnicos).
    expect(text).toBe('Situação não reconhecida')
    expect(html).toContain('title="Situação não reconhecida: código em_analise do serviço')
    expect(html).toContain('data-status="em_analise"')
    expect(text).not.toContain('?')
    await i18n.changeLanguage('en')
    const en = renderToStaticMarkup(
      createElement(StatusBadge, { status: 'em_analise', localState: 'created', hasRefund: true }),
    ).replace(/<[^>]+>/g, '')
    expect(en).toBe('Unrecognised status · with refund')
    await i18n.changeLanguage('pt-BR')
  })
})

describe('a payee mismatch is never a bare green "Pago"', () => {
  it('lists the mismatch in words with its reason; the status stays for screen readers', async () => {
    const { renderToStaticMarkup } = await import('react-dom/server')
    const { createElement } = await import('react')
    const { RecordStatus } = await import('../../src/renderer/src/components/RecordStatus')
    const { default: i18n } = await import('../../src/renderer/src/i18n')
    await i18n.changeLanguage('pt-BR')
    const base = {
      remoteStatus: 'sent',
      localState: 'created',
      refund: null,
      receiverName: 'JOAO OUTRO',
      lastRemote: { receiverName: 'JOAO OUTRO' },
      expectedPayee: { id: 'p', name: 'Maria Silva', taxNumber: '52998224725' },
    }
    const html = renderToStaticMarkup(
      createElement(RecordStatus, { record: { ...base, flags: ['payee_mismatch'] } as never }),
    )
    expect(html).toContain('Favorecido diferente do cadastro')
    expect(html).toContain(
      'O serviço informou “JOAO OUTRO” como titular da chave; o cadastro diz “Maria Silva”.',
    )
    expect(html).toContain('data-tone="attention"')
    const fine = renderToStaticMarkup(
      createElement(RecordStatus, { record: { ...base, flags: [] } as never }),
    )
    expect(fine).not.toContain('Favorecido diferente')
    expect(fine.replace(/<[^>]+>/g, '')).toBe('Pago')
  })
})
