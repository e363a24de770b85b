/**
 * What the review step does before a create: quote (which issues the one-use intent), then create with that
 * intent. `confirm: true` confirms every similar record the review showed, as the operator's checkbox does.
 */
import type { WithdrawalService } from '../../../src/main/withdrawals'
import type { WithdrawalDraft } from '../../../src/shared/withdrawal'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'

export async function reviewedCreate(
  service: Pick<WithdrawalService, 'quote' | 'create'>,
  draft: WithdrawalDraft,
  o: { confirm?: boolean } = {},
): Promise<WithdrawalRecord> {
  const q = await service.quote(draft)
  return service.create(draft, {
    intentId: q.intent.id,
    confirmedDuplicates: o.confirm ? q.duplicates.map((d) => d.localId) : [],
  })
}
