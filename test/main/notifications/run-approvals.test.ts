/**
 * Which run change needs this desk, its once-only key and its words (notifications/run-approvals.ts): the rule of
 * the payments' approvals for runs, plus the importer (who may not approve either), without the file's name.
 */
import { describe, expect, it } from 'vitest'
import {
  runApprovalNotificationKey,
  runApprovalNotificationKind,
  runApprovalNotificationText,
  type RunApprovalNotice,
} from '../../../src/main/notifications/run-approvals'

const n = (over: Partial<RunApprovalNotice> = {}): RunApprovalNotice => ({
  runId: 'run-1',
  name: 'folha-sigilosa.csv',
  state: 'draft',
  importedBy: 'ana',
  requestedBy: 'ana',
  requestedAt: '2026-11-26T10:00:00.000Z',
  approvedBy: null,
  rejectedBy: null,
  me: 'bruno',
  rows: 3,
  payoutCents: 120_000,
  ...over,
})

describe('run approval notifications', () => {
  it('asked: another analyst is told; neither the requester nor the importer', () => {
    expect(runApprovalNotificationKind(n())).toBe('run_to_decide')
    expect(runApprovalNotificationKind(n({ me: 'ana' }))).toBeNull()
    expect(runApprovalNotificationKind(n({ importedBy: 'bruno', requestedBy: 'carla' }))).toBeNull()
    // Nobody asked (a run below the limit, or a request voided by a changed row): nothing.
    expect(runApprovalNotificationKind(n({ requestedBy: null, requestedAt: null }))).toBeNull()
  })

  it('decided: only the requester is told, and only of someone else’s decision', () => {
    const approved = n({ state: 'approved', approvedBy: 'carla' })
    expect(runApprovalNotificationKind({ ...approved, me: 'ana' })).toBe('run_approved')
    expect(runApprovalNotificationKind({ ...approved, me: 'carla' })).toBeNull()
    expect(runApprovalNotificationKind({ ...approved, me: 'bruno' })).toBeNull()
    // Later states of an approved run (waves) say the same thing: the key makes it once.
    expect(runApprovalNotificationKind({ ...approved, state: 'creating', me: 'ana' })).toBe('run_approved')
    const rejected = n({ state: 'cancelled', rejectedBy: 'carla', me: 'ana' })
    expect(runApprovalNotificationKind(rejected)).toBe('run_rejected')
    // Cancelled by the requester herself (no rejection entry), or told to the rejecter: nothing.
    expect(runApprovalNotificationKind({ ...rejected, rejectedBy: null })).toBeNull()
    expect(runApprovalNotificationKind({ ...rejected, me: 'carla' })).toBeNull()
  })

  it('one key per request and kind: asked again after a void is a new request', () => {
    expect(runApprovalNotificationKey('run_to_decide', n())).not.toBe(
      runApprovalNotificationKey('run_to_decide', n({ requestedAt: '2026-11-26T11:00:00.000Z' })),
    )
    expect(runApprovalNotificationKey('run_to_decide', n())).not.toBe(
      runApprovalNotificationKey('run_approved', n()),
    )
  })

  it('amount and count in both languages; never the file name', () => {
    expect(runApprovalNotificationText('run_to_decide', n(), 'pt-BR')).toEqual({
      title: 'Lote aguardando aprovação',
      body: 'ana pediu aprovação de um lote de 3 pagamentos (R$ 1.200,00)',
    })
    expect(runApprovalNotificationText('run_approved', n({ approvedBy: 'carla', rows: 1 }), 'en')).toEqual({
      title: 'Payment run approved',
      body: 'carla approved your payment run of 1 withdrawal (R$1,200.00): its waves may be created now',
    })
    const all = (['run_to_decide', 'run_approved', 'run_rejected'] as const).flatMap((k) =>
      (['pt-BR', 'en'] as const).map((l) => JSON.stringify(runApprovalNotificationText(k, n(), l))),
    )
    expect(all.join('\n')).not.toContain('sigilosa')
  })
})
