/** The sentence per team settings change (issue #31), as Configurações and `team-ledger status` show it. */
import { describe, expect, it } from 'vitest'
import {
  describeSettingChange,
  settingChangeSchema,
  type SettingChange,
} from '../../src/shared/team-settings-changes'

const base = { seq: 7, at: '2026-11-27T12:00:00.000Z', by: 'depix_owner' }

describe('describeSettingChange', () => {
  it('says who changed what, from what to what, in pt-BR and English', () => {
    const threshold: SettingChange = { ...base, kind: 'threshold', before: 500000, after: null }
    expect(describeSettingChange(threshold, 'pt-BR')).toBe(
      'depix_owner mudou o limite de aprovação: acima de R$ 5.000,00 → sem aprovação',
    )
    expect(describeSettingChange(threshold, 'en')).toBe(
      'depix_owner changed the approval threshold: above R$5,000.00 → no approval',
    )
    const rate: SettingChange = { ...base, kind: 'rate', endpoint: 'deposit', before: '15', after: '7.5' }
    expect(describeSettingChange(rate, 'pt-BR')).toBe(
      'depix_owner mudou a cota da equipe para compras de DePix: 15 por minuto → 7,5 por minuto',
    )
    expect(describeSettingChange(rate, 'en')).toBe(
      'depix_owner changed the team allowance for DePix purchases: 15 a minute → 7.5 a minute',
    )
    // An endpoint this version does not know is named as the database has it.
    expect(describeSettingChange({ ...rate, endpoint: 'novo' }, 'pt-BR')).toContain('para novo:')
  })

  it('tells adding from removing an analyst', () => {
    const removed: SettingChange = {
      ...base,
      by: 'postgres',
      kind: 'analyst',
      role: 'ana',
      before: 'active',
      after: 'outside',
    }
    expect(describeSettingChange(removed, 'pt-BR')).toBe(
      'postgres removeu o analista ana: ativo → fora do grupo dos analistas',
    )
    const back: SettingChange = { ...removed, before: 'no_login', after: 'active' }
    expect(describeSettingChange(back, 'en')).toBe('postgres added analyst ana: cannot log in → active')
  })

  it('refuses what a shared database could hold but the screen must not show', () => {
    expect(settingChangeSchema.safeParse({ ...base, kind: 'threshold', before: 1.5, after: 0 }).success).toBe(
      false,
    )
    expect(settingChangeSchema.safeParse({ ...base, kind: 'threshold', before: -1, after: 0 }).success).toBe(
      false,
    )
    expect(
      settingChangeSchema.safeParse({ ...base, kind: 'analyst', role: 'x', before: 'god', after: 'active' })
        .success,
    ).toBe(false)
    expect(settingChangeSchema.safeParse({ ...base, kind: 'other' }).success).toBe(false)
  })
})
