/**
 * Issue #24, attack 5: the approver sees where a failed payout's deposit would go. The approval card shows the
 * request's refund address, and marks it when it is not one of the team's registered treasury addresses.
 */
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ApprovalFacts } from '../../src/renderer/src/components/approvals/ApprovalFacts'
import '../../src/renderer/src/i18n'
import { approvalViewSchema, type ApprovalView } from '../../src/shared/channels-team'

const EVE = 'lq1qqeve0000000000000000000000000000000000000000000000000000000000'

function approval(over: Partial<ApprovalView> = {}): ApprovalView {
  return approvalViewSchema.parse({
    id: '6f1c7c53-6a43-4c43-9d55-0a6a3f0e0001',
    localId: 'local-1',
    profile: 'p1',
    request: { pixKey: 'fornecedor@example.com', payoutAmountInCents: 250_000, refundAddress: EVE },
    pixKey: 'fornecedor@example.com',
    amountKind: 'payout',
    amountCents: 250_000,
    note: null,
    requestedBy: 'eve',
    requestedAt: '2026-11-25T10:00:00.000Z',
    state: 'pending',
    decidedBy: null,
    decidedAt: null,
    decisionNote: null,
    mine: false,
    ...over,
  })
}

const html = (a: ApprovalView): string => renderToStaticMarkup(createElement(ApprovalFacts, { approval: a }))
// The address is shown in groups of four (one span each): compare the text with the tags taken out.
const text = (markup: string): string => markup.replace(/<[^>]+>/g, '')

describe('the approval card and the refund address', () => {
  it('shows the refund address, marked in pt-BR when the team has not registered it', () => {
    const out = html(approval({ refundAddress: EVE, refundRegistered: false }))
    expect(out).toContain('Endereço de devolução')
    expect(text(out)).toContain(EVE)
    expect(out).toContain('data-testid="approval-refund-unregistered"')
    expect(out).toContain('Não é um endereço cadastrado da equipe')
  })

  it('shows a registered one without the mark, and nothing when the request has none', () => {
    const registered = html(approval({ refundAddress: EVE, refundRegistered: true }))
    expect(text(registered)).toContain(EVE)
    expect(registered).not.toContain('approval-refund-unregistered')
    expect(
      html(
        approval({
          refundAddress: null,
          request: { pixKey: 'fornecedor@example.com', payoutAmountInCents: 250_000 },
        }),
      ),
    ).not.toContain('Endereço de devolução')
  })

  it('reads an older main (no refund fields) as no refund address', () => {
    const parsed = approvalViewSchema.parse({
      ...approval(),
      refundAddress: undefined,
      refundRegistered: undefined,
    })
    expect(parsed).toMatchObject({ refundAddress: null, refundRegistered: false })
  })
})

describe('the approval card of a top-up (issue #24, attack 4)', () => {
  const topUp = (over: Partial<ApprovalView> = {}): ApprovalView =>
    approval({
      kind: 'deposit',
      request: { amountInCents: 200_000, depixAddress: EVE },
      pixKey: '',
      amountKind: 'deposit',
      amountCents: 200_000,
      refundAddress: null,
      depixAddress: EVE,
      depixRegistered: false,
      ...over,
    })

  it('shows the amount in reais and the delivery address, marked when the team has not registered it', () => {
    const out = html(topUp())
    expect(text(out)).toContain('R$ 2.000,00')
    expect(out).toContain('compra de DePix')
    expect(out).toContain('Endereço de entrega do DePix')
    expect(text(out)).toContain(EVE)
    expect(out).toContain('data-testid="approval-depix-unregistered"')
    // No Pix key line (a top-up pays none) and no refund line.
    expect(out).not.toContain('approval-pix-key')
    expect(out).not.toContain('Endereço de devolução')
  })

  it('shows a registered delivery address without the mark', () => {
    const out = html(topUp({ depixRegistered: true }))
    expect(text(out)).toContain(EVE)
    expect(out).not.toContain('approval-depix-unregistered')
  })
})
