/**
 * What was typed in the withdrawal form, kept in memory while the user visits another page, so a look at the
 * withdrawals list does not cost a half-filled form. Cleared once a withdrawal is created. Never persisted.
 */
import { create } from 'zustand'
import { EMPTY_FORM, type WithdrawalFormValues } from './form-model'

interface DraftState {
  values: WithdrawalFormValues
  keep: (values: WithdrawalFormValues) => void
  clear: () => void
}

export const useWithdrawalDraft = create<DraftState>((set) => ({
  values: EMPTY_FORM,
  keep: (values) => set({ values }),
  clear: () => set({ values: EMPTY_FORM }),
}))
