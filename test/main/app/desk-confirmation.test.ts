/**
 * The desk's confirmation of a large live payment (issue #26): the rule (live only, above the limit, null never
 * asks), main's refusal unless the typed amount is the draft's, and the setting (integer cents or null, default
 * R$ 10.000,00, refused otherwise).
 */
import { describe, expect, it } from 'vitest'
import { checkDeskConfirmation } from '../../../src/main/app/desk-confirmation'
import { needsDeskConfirmation } from '../../../src/shared/desk-limit'
import { DEFAULT_SETTINGS, settingsPatchSchema, settingsSchema } from '../../../src/shared/profile'

describe('desk confirmation of a large live payment', () => {
  it('asks on a live profile above the limit only; the Sandbox and a null limit never ask', () => {
    expect(needsDeskConfirmation('live', 1_000_000, 1_000_001)).toBe(true)
    expect(needsDeskConfirmation('live', 1_000_000, 1_000_000)).toBe(false)
    expect(needsDeskConfirmation('sandbox', 1_000_000, 5_000_000)).toBe(false)
    expect(needsDeskConfirmation('live', null, 5_000_000)).toBe(false)
    expect(needsDeskConfirmation('live', 0, 1)).toBe(true)
  })

  it('main refuses unless the typed amount is exactly the draft’s, with a sentence in both languages', () => {
    const refuse = (typed: number | undefined) => () =>
      checkDeskConfirmation('live', 1_000_000, 1_234_567, typed)
    for (const typed of [undefined, 1_234_566, 1_000_000, 0]) {
      expect(refuse(typed)).toThrow(expect.objectContaining({ code: 'amount_confirmation_required' }))
    }
    try {
      refuse(undefined)()
    } catch (e) {
      expect((e as { extra: { userMessage: Record<string, string> } }).extra.userMessage['pt-BR']).toContain(
        'digite o valor do pagamento',
      )
    }
    expect(refuse(1_234_567)).not.toThrow()
    expect(() => checkDeskConfirmation('live', 1_000_000, 999_999, undefined)).not.toThrow()
    expect(() => checkDeskConfirmation('sandbox', 1_000_000, 9_999_999, undefined)).not.toThrow()
  })

  it('the setting: R$ 10.000,00 by default, integer cents or null, anything else refused', () => {
    expect(DEFAULT_SETTINGS.liveConfirmAboveCents).toBe(1_000_000)
    expect(settingsSchema.parse({ liveConfirmAboveCents: null }).liveConfirmAboveCents).toBeNull()
    expect(settingsPatchSchema.parse({ liveConfirmAboveCents: 50_000 })).toEqual({
      liveConfirmAboveCents: 50_000,
    })
    for (const bad of [10.5, -1, '1000', Number.MAX_SAFE_INTEGER + 2]) {
      expect(settingsPatchSchema.safeParse({ liveConfirmAboveCents: bad }).success).toBe(false)
    }
  })
})
