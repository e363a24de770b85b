/**
 * Approval notifications through the service under Node, against a real ledger file: which approval changes need
 * this desk, once per approval and state (also after reopening the ledger), masked keys and no notes, both
 * languages, DePix amounts, the off switch, a port without OS support and a throwing port.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openLedger, type Ledger } from '../../../src/main/ledger/sqlite'
import {
  approvalNotificationKind,
  approvalNotificationText,
  createNotificationService,
  type DesktopNotification,
  type NotifierPort,
} from '../../../src/main/notifications'
import { approvalViewSchema, type ApprovalView } from '../../../src/shared/channels-team'

let dir: string
let ledger: Ledger
const shown: DesktopNotification[] = []
const openedApprovals: string[] = []
const logs: string[] = []
let enabled = true

const recording: NotifierPort = {
  supported: () => true,
  show: (n, click) => {
    shown.push(n)
    click()
  },
}
const service = (l: Ledger, port: NotifierPort = recording, locale: 'pt-BR' | 'en' = 'pt-BR') =>
  createNotificationService({
    ledger: l,
    port,
    enabled: () => enabled,
    locale: () => locale,
    open: () => undefined,
    openApprovals: (id) => openedApprovals.push(id),
    log: (line) => logs.push(line),
  })

function approval(over: Partial<ApprovalView> = {}): ApprovalView {
  return approvalViewSchema.parse({
    id: '6f1c7c53-6a43-4c43-9d55-0a6a3f0e0001',
    localId: 'local-1',
    profile: 'p1',
    request: {},
    pixKey: 'fornecedor@example.com',
    amountKind: 'payout',
    amountCents: 250_000,
    note: 'NF 123 confidencial',
    requestedBy: 'ana',
    requestedAt: '2026-11-25T10:00:00.000Z',
    state: 'pending',
    decidedBy: null,
    decidedAt: null,
    decisionNote: null,
    mine: false,
    ...over,
  })
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'approval-notifications-'))
  ledger = openLedger(join(dir, 'ledger.sqlite'))
  shown.length = 0
  openedApprovals.length = 0
  logs.length = 0
  enabled = true
})
afterEach(() => {
  ledger.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('which approval change needs this desk', () => {
  it('another analyst’s request; my request decided; nothing else', () => {
    expect(approvalNotificationKind(approval())).toBe('to_decide')
    expect(approvalNotificationKind(approval({ mine: true }))).toBeNull()
    expect(approvalNotificationKind(approval({ mine: true, state: 'approved', decidedBy: 'bruno' }))).toBe(
      'approved',
    )
    expect(approvalNotificationKind(approval({ mine: true, state: 'rejected', decidedBy: 'bruno' }))).toBe(
      'rejected',
    )
    // Others' requests decided (by me or a third desk) and sent ones are not this desk's news.
    expect(approvalNotificationKind(approval({ state: 'approved', decidedBy: 'bruno' }))).toBeNull()
    expect(approvalNotificationKind(approval({ state: 'rejected', decidedBy: 'carla' }))).toBeNull()
    expect(approvalNotificationKind(approval({ mine: true, state: 'sent', decidedBy: 'bruno' }))).toBeNull()
  })
})

describe('texts', () => {
  it('amount and masked key in both languages, DePix for a deposit amount; never the note or the full key', () => {
    const a = approval({ amountKind: 'deposit', amountCents: 123_456 })
    expect(approvalNotificationText('to_decide', a, 'pt-BR')).toEqual({
      title: 'Pedido de aprovação',
      body: `ana pediu aprovação de 1.234,56000000 DePix para for${'*'.repeat(12)}om`,
    })
    const en = approvalNotificationText(
      'approved',
      approval({ mine: true, state: 'approved', decidedBy: 'bo' }),
      'en',
    )
    expect(en).toEqual({
      title: 'Withdrawal approved',
      body: `bo approved R$2,500.00 to for${'*'.repeat(12)}om: it may be sent now`,
    })
    for (const kind of ['to_decide', 'approved', 'rejected'] as const) {
      for (const lang of ['pt-BR', 'en'] as const) {
        const t = approvalNotificationText(
          kind,
          approval({ decisionNote: 'motivo sigiloso', decidedBy: 'x' }),
          lang,
        )
        expect(`${t.title} ${t.body}`).not.toMatch(/fornecedor|NF 123|sigiloso/)
      }
    }
  })
})

describe('texts of a top-up (issue #24, attack 4)', () => {
  it('says top-up, the amount in reais, and names no address or key', () => {
    const EVE = 'lq1qqeve0000000000000000000000000000000000000000000000000000000000'
    const a = approval({
      kind: 'deposit',
      pixKey: '',
      amountKind: 'deposit',
      amountCents: 200_000,
      request: { amountInCents: 200_000, depixAddress: EVE },
      depixAddress: EVE,
    })
    expect(approvalNotificationText('to_decide', a, 'pt-BR')).toEqual({
      title: 'Pedido de aprovação',
      body: 'ana pediu aprovação de uma compra de DePix de R$ 2.000,00',
    })
    const en = approvalNotificationText('approved', { ...a, decidedBy: 'bo', state: 'approved' }, 'en')
    expect(en.title).toBe('Top-up approved')
    expect(en.body).toContain('R$2,000.00')
    expect(`${en.title} ${en.body}`).not.toContain(EVE)
  })
})

describe('the service', () => {
  it('once per approval and state, even after a restart; the click opens the Aprovações page', () => {
    service(ledger).onApproval(approval())
    service(ledger).onApproval(approval())
    expect(shown).toHaveLength(1)
    expect(openedApprovals).toEqual(['6f1c7c53-6a43-4c43-9d55-0a6a3f0e0001'])
    ledger.close()
    ledger = openLedger(join(dir, 'ledger.sqlite'))
    service(ledger).onApproval(approval())
    expect(shown).toHaveLength(1)
    // The same approval, decided later, on the requester's desk is a new event.
    service(ledger).onApproval(approval({ mine: true, state: 'rejected', decidedBy: 'bruno' }))
    expect(shown.map((n) => n.title)).toEqual(['Pedido de aprovação', 'Pagamento recusado'])
  })

  it('the switch off, or no OS support: nothing shown and nothing claimed (shown once it is back)', () => {
    enabled = false
    service(ledger).onApproval(approval())
    service(ledger, { supported: () => false, show: () => shown.push({ title: 'x', body: 'x' }) }).onApproval(
      approval(),
    )
    expect(shown).toEqual([])
    enabled = true
    service(ledger).onApproval(approval())
    expect(shown).toHaveLength(1)
  })

  it('a throwing port is logged without the key or note, and breaks nothing', () => {
    const broken: NotifierPort = {
      supported: () => true,
      show: () => {
        throw new TypeError('fornecedor@example.com exploded')
      },
    }
    expect(() => service(ledger, broken).onApproval(approval())).not.toThrow()
    expect(logs).toEqual(['notification approval to_decide failed (TypeError)'])
  })

  it('English when the app speaks English', () => {
    service(ledger, recording, 'en').onApproval(approval())
    expect(shown).toEqual([
      { title: 'Approval requested', body: `ana requested approval of R$2,500.00 to for${'*'.repeat(12)}om` },
    ])
  })
})

describe('stale pop-ups (issue #26)', () => {
  // A port whose notifications stay on screen until closed, like the OS's.
  function lingering(): { port: NotifierPort; open: () => string[] } {
    const onScreen = new Set<string>()
    return {
      port: {
        supported: () => true,
        show: (n) => {
          onScreen.add(n.title)
          return { close: () => onScreen.delete(n.title) }
        },
      },
      open: () => [...onScreen],
    }
  }

  it('a request decided or rejected elsewhere closes the pop-up that asked for a decision', () => {
    const screen = lingering()
    const s = service(ledger, screen.port)
    s.onApproval(approval())
    expect(screen.open()).toEqual(['Pedido de aprovação'])
    // Another payment's decision leaves it; this one's closes it.
    s.onApproval(
      approval({ id: '6f1c7c53-6a43-4c43-9d55-0a6a3f0e0002', state: 'approved', decidedBy: 'carla' }),
    )
    expect(screen.open()).toEqual(['Pedido de aprovação'])
    s.onApproval(approval({ state: 'rejected', decidedBy: 'carla' }))
    expect(screen.open()).toEqual([])
  })

  it('a run approved, rejected or cancelled elsewhere closes its "to decide" pop-up; notifications off still close', () => {
    const screen = lingering()
    const s = service(ledger, screen.port)
    const run = {
      runId: 'run-1',
      name: 'folha.csv',
      state: 'draft',
      importedBy: 'ana',
      requestedBy: 'ana',
      requestedAt: '2026-11-26T10:00:00.000Z',
      approvedBy: null,
      rejectedBy: null,
      me: 'bruno',
      rows: 3,
      payoutCents: 120_000,
    }
    s.onRunApproval(run)
    expect(screen.open()).toEqual(['Lote aguardando aprovação'])
    // Still waiting (another row event): it stays.
    s.onRunApproval(run)
    expect(screen.open()).toEqual(['Lote aguardando aprovação'])
    enabled = false
    s.onRunApproval({ ...run, state: 'cancelled', rejectedBy: 'carla' })
    expect(screen.open()).toEqual([])
  })
})
