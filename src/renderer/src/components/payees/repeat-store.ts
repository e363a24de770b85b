/**
 * The payment being repeated, while its copy is in the form: the form says so and offers the previous amount.
 * Memory only; cleared when the notice is closed or the new payment is created.
 */
import { create } from 'zustand'
import type { AmountKind } from '../withdrawal-form/form-model'

export interface RepeatSource {
  localId: string
  createdAt: string
  amountKind: AmountKind
  cents: number
}

interface RepeatState {
  from: RepeatSource | null
  set: (from: RepeatSource | null) => void
}

export const useRepeat = create<RepeatState>((set) => ({
  from: null,
  set: (from) => set({ from }),
}))
