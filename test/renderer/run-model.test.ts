import { describe, expect, it } from 'vitest'
import { runSettlement, runTone } from '../../src/renderer/src/components/runs/run-model'

describe('a run says what its rows did', () => {
  it('a completed run with 0 of 20 paid is still "in processing", never "done"', () => {
    expect(runSettlement('completed', { created: 12, funded: 8 })).toBe('processing')
    expect(runTone('completed', 'processing')).toBe('pending')
  })
  it('settled when every row that left was paid; partial when some were; dropped rows do not count', () => {
    expect(runSettlement('completed', { paid: 18, dropped: 2 })).toBe('settled')
    expect(runSettlement('completed', { paid: 18, returned: 2 })).toBe('partial')
    expect(runSettlement('cancelled', { expired: 3, not_created: 1 })).toBe('unpaid')
    expect(runTone('completed', 'settled')).toBe('success')
  })
  it('leaves the run state word while creation goes on, or when nothing ever left', () => {
    expect(runSettlement('creating', { paid: 3, pending: 7 })).toBeNull()
    expect(runSettlement('cancelled', { dropped: 5 })).toBeNull()
  })
})
