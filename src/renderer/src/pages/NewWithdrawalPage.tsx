/**
 * Nova retirada: form → review (main's quote of the exact request) → create. A created withdrawal goes to its
 * funding page; a refusal comes back to the form with everything typed still there; an unknown outcome is
 * explained, never retried. On a team ledger above its limit the review asks for approval instead (issue #16):
 * nothing is created, the request waits in "Aprovações" for another analyst.
 */
import { useEffect, useRef, useState } from 'react'
import { FormProvider, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { ApprovalView } from '../../../shared/channels-team'
import type { IpcError, WithdrawalQuote } from '../../../shared/contract'
import { ApprovalRequested } from '../components/approvals/ApprovalRequest'
import type { WithdrawalDraft } from '../../../shared/withdrawal'
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'
import {
  EMPTY_FORM,
  fieldCodesFromIpc,
  recordErrorToIpc,
  ROOT_FIELD,
  toDraft,
  withdrawalFormResolver,
  type WithdrawalFormValues,
} from '../components/withdrawal-form/form-model'
import { withAreaMessage } from '../components/withdrawal-form/error-text'
import { useWithdrawalDraft } from '../components/withdrawal-form/draft-store'
import { OutcomeUnknown } from '../components/withdrawal-form/OutcomeUnknown'
import { ReviewStep } from '../components/withdrawal-form/ReviewStep'
import { useLiquidCheck } from '../components/withdrawal-form/useLiquidCheck'
import { WithdrawalForm } from '../components/withdrawal-form/WithdrawalForm'
import { useRepeat } from '../components/payees/repeat-store'
import { useDefaultRefund } from '../components/payees/useDefaultRefund'
import { call } from '../ipc'
import { useApp } from '../stores/app'
import { useRoute } from '../stores/route'
import { useTeam } from '../stores/team'
import { PageHeader } from '../components/ui/PageHeader'

/** Refusals of create that a fresh review answers (main's create-intent rules). */
const REVIEW_AGAIN = new Set([
  'duplicate',
  'duplicate_since_review',
  'intent_invalid',
  'intent_expired',
  'intent_mismatch',
  // The team's limit or threshold changed since the review: the fresh quote says whether approval is needed.
  'approval_required',
])

/** A refusal on the review: the payment area's words, else the approvals area's (issue #16). */
function reviewMessage(error: IpcError): IpcError {
  return withAreaMessage(withAreaMessage(error, 'withdrawal'), 'approvals')
}

type Step =
  | { step: 'form' }
  | { step: 'review'; quote: WithdrawalQuote; draft: WithdrawalDraft; version: number }
  | { step: 'unknown'; record: WithdrawalRecord | null; requestId: string | null }
  | { step: 'requested'; approval: ApprovalView }

export function NewWithdrawalPage(): React.JSX.Element {
  const { t } = useTranslation('withdrawal')
  const go = useRoute((s) => s.go)
  const network = useApp((s) => s.info?.network)
  const kept = useWithdrawalDraft.getState()
  const form = useForm<WithdrawalFormValues>({
    defaultValues: kept.values,
    resolver: withdrawalFormResolver,
    mode: 'onTouched',
    reValidateMode: 'onChange',
  })
  // Leaving the page keeps what was typed; a created withdrawal clears it (see create).
  const { getValues } = form
  useEffect(() => () => useWithdrawalDraft.getState().keep(getValues()), [getValues])
  const refundAddress = useWatch({ control: form.control, name: 'refundAddress' })
  const liquid = useLiquidCheck(refundAddress, network)
  // The profile's own refund address fills an empty field once (issue #14); the operator may change it.
  const defaultRefund = useDefaultRefund(form)

  const [state, setState] = useState<Step>({ step: 'form' })
  const [formError, setFormError] = useState<{ error: IpcError; otherCodes: string[] } | null>(null)
  const [reviewError, setReviewError] = useState<IpcError | null>(null)
  const [quoting, setQuoting] = useState(false)
  const [creating, setCreating] = useState(false)
  // State updates are asynchronous; the ref closes the gap in which a second click could create twice.
  const inFlight = useRef(false)

  /** Shows an error on the form, field by field where main named fields. Nothing typed is touched. */
  const showOnForm = (error: IpcError): void => {
    const otherCodes: string[] = []
    const fields = fieldCodesFromIpc(error.fields)
    for (const [field, code] of fields) {
      if (field === ROOT_FIELD) otherCodes.push(code)
      else form.setError(field as keyof WithdrawalFormValues, { type: 'server', message: code })
    }
    if (error.code === 'refund_address_invalid' && !fields.some(([f]) => f === 'refundAddress')) {
      form.setError('refundAddress', { type: 'server', message: error.code })
    }
    setFormError({ error: withAreaMessage(error, 'withdrawal'), otherCodes })
    setState({ step: 'form' })
  }

  const quote = async (draft: WithdrawalDraft): Promise<void> => {
    if (inFlight.current) return
    inFlight.current = true
    setQuoting(true)
    const r = await call('withdrawals:quote', { draft })
    inFlight.current = false
    setQuoting(false)
    if (!r.ok) return showOnForm(r.error)
    setFormError(null)
    setState((s) => ({
      step: 'review',
      quote: r.data,
      draft,
      version: s.step === 'review' ? s.version + 1 : 0,
    }))
  }

  const create = async (
    draft: WithdrawalDraft,
    quoted: WithdrawalQuote,
    confirmDuplicate: boolean,
    typedCents?: number,
  ): Promise<void> => {
    if (inFlight.current) return
    inFlight.current = true
    setCreating(true)
    setReviewError(null)
    // The review's one-use intent, and exactly the similar records this review showed and the operator confirmed.
    const r = await call('withdrawals:create', {
      draft,
      intentId: quoted.intent.id,
      ...(confirmDuplicate ? { confirmedDuplicates: quoted.duplicates.map((d) => d.localId) } : {}),
      ...(typedCents !== undefined ? { confirmedAmountCents: typedCents } : {}),
    })
    if (r.ok && r.data.localState === 'created') {
      // Stays "in flight" on purpose: the page is leaving, nothing more may be sent from it.
      form.reset(EMPTY_FORM)
      useRepeat.getState().set(null)
      go({ page: 'funding', localId: r.data.localId })
      return
    }
    inFlight.current = false
    setCreating(false)
    if (r.ok) {
      if (r.data.localState === 'rejected') return showOnForm(recordErrorToIpc(r.data))
      return setState({ step: 'unknown', record: r.data, requestId: r.data.requestId })
    }
    if (r.error.code === 'outcome_unknown') {
      return setState({ step: 'unknown', record: null, requestId: r.error.requestId ?? null })
    }
    if (REVIEW_AGAIN.has(r.error.code)) {
      // Something similar appeared since the review, or the review is spent or stale: show a fresh review (its
      // list and a new intent) and ask again. Nothing was sent.
      setReviewError(reviewMessage(r.error))
      return quote(draft)
    }
    showOnForm(r.error)
  }

  const requestApproval = async (
    draft: WithdrawalDraft,
    quoted: WithdrawalQuote,
    confirmDuplicate: boolean,
    note: string,
  ): Promise<void> => {
    if (inFlight.current) return
    inFlight.current = true
    setCreating(true)
    setReviewError(null)
    // What is approved is exactly what was reviewed: the same draft, intent and confirmed similar records.
    const r = await call('approvals:request', {
      draft,
      intentId: quoted.intent.id,
      ...(confirmDuplicate ? { confirmedDuplicates: quoted.duplicates.map((d) => d.localId) } : {}),
      ...(note ? { note } : {}),
    })
    inFlight.current = false
    setCreating(false)
    if (r.ok) {
      form.reset(EMPTY_FORM)
      useRepeat.getState().set(null)
      useTeam.getState().changed(r.data, false)
      return setState({ step: 'requested', approval: r.data })
    }
    if (REVIEW_AGAIN.has(r.error.code)) {
      setReviewError(reviewMessage(r.error))
      return quote(draft)
    }
    if (r.error.fields) return showOnForm(r.error)
    // Team refusals (unavailable, permission_denied…): the review stays, with everything reviewed still there.
    setReviewError(reviewMessage(r.error))
  }

  const backToForm = (): void => {
    setReviewError(null)
    setState({ step: 'form' })
    setTimeout(() => form.setFocus('pixKey'))
  }

  return (
    <div className="page new-withdrawal">
      <PageHeader
        id="new-withdrawal-heading"
        title={t('title')}
        leadLive
        lead={t(
          state.step === 'form'
            ? 'steps.form'
            : state.step === 'review'
              ? 'steps.review'
              : state.step === 'requested'
                ? 'steps.requested'
                : 'steps.unknown',
        )}
      />
      <FormProvider {...form}>
        {state.step === 'form' && (
          <WithdrawalForm
            liquid={liquid}
            network={network}
            defaultRefund={defaultRefund}
            quoting={quoting}
            error={formError?.error ?? null}
            otherCodes={formError?.otherCodes ?? []}
            onReview={(values) => void quote(toDraft(values))}
          />
        )}
      </FormProvider>
      {state.step === 'review' && (
        <ReviewStep
          key={state.version}
          quote={state.quote}
          draft={state.draft}
          network={network}
          creating={creating}
          error={reviewError}
          onBack={backToForm}
          onConfirm={(confirmDuplicate, note, typedCents) =>
            void (state.quote.needsApproval
              ? requestApproval(state.draft, state.quote, confirmDuplicate, note ?? '')
              : create(state.draft, state.quote, confirmDuplicate, typedCents))
          }
        />
      )}
      {state.step === 'requested' && (
        <ApprovalRequested
          approval={state.approval}
          onOpenQueue={() => go({ page: 'approvals' })}
          onAnother={backToForm}
        />
      )}
      {state.step === 'unknown' && (
        <OutcomeUnknown record={state.record} requestId={state.requestId} onBack={backToForm} />
      )}
    </div>
  )
}
