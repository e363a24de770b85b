import { describe, expect, it } from 'vitest'
import {
  checkTeamForm,
  EMPTY_TEAM_FORM,
  fieldMessages,
  formOf,
  type TeamFormValues,
} from '../../src/renderer/src/components/settings/team-ledger-form'
import { TEAM_TEST_VERDICTS } from '../../src/shared/channels-team'
import { teamLedgerMessages, teamTestMessages } from '../../src/shared/team-ledger'

const filled: TeamFormValues = {
  ...EMPTY_TEAM_FORM,
  host: ' db.equipe.example ',
  port: '5433',
  role: 'ana_souza',
  password: 'segredo',
}

describe('the team ledger form', () => {
  it('turns what was typed into main’s settings: trimmed, the port a number, a blank CA null', () => {
    expect(checkTeamForm(filled, 'pt-BR', true)).toEqual({
      ok: true,
      settings: {
        host: 'db.equipe.example',
        port: 5433,
        database: 'depix_team',
        role: 'ana_souza',
        tls: 'verify-full',
        caPem: null,
      },
      password: 'segredo',
    })
    // No password typed: sent without one (main keeps the stored one for the same server) unless none is stored.
    const blank = { ...filled, password: '' }
    expect(checkTeamForm(blank, 'pt-BR', false)).toMatchObject({ ok: true, password: undefined })
    expect(checkTeamForm(blank, 'en', true)).toEqual({
      ok: false,
      errors: { password: teamLedgerMessages.password_required.en },
    })
  })

  it('refuses with the shared sentences, never zod’s English, a partly numeric port included', () => {
    const r = checkTeamForm(
      { ...filled, port: '54x2', database: 'Depix', role: 'ana souza', caPem: 'colado errado' },
      'pt-BR',
      false,
    )
    expect(r).toEqual({
      ok: false,
      errors: {
        port: teamLedgerMessages.port_invalid['pt-BR'],
        database: teamLedgerMessages.database_invalid['pt-BR'],
        role: teamLedgerMessages.role_invalid['pt-BR'],
        caPem: teamLedgerMessages.ca_invalid['pt-BR'],
      },
    })
    expect(checkTeamForm({ ...filled, port: '70000' }, 'en', false)).toMatchObject({
      errors: { port: teamLedgerMessages.port_invalid.en },
    })
    expect(checkTeamForm({ ...filled, tls: 'disable' }, 'en', false)).toMatchObject({
      errors: { tls: teamLedgerMessages.tls_required.en },
    })
    expect(checkTeamForm({ ...filled, host: '::1', tls: 'disable' }, 'en', false)).toMatchObject({ ok: true })
    expect(checkTeamForm({ ...filled, password: 'x'.repeat(1025) }, 'en', false)).toMatchObject({
      errors: { password: teamLedgerMessages.password_too_long.en },
    })
  })

  it('places main’s field refusals on the form’s fields; an unknown code reads "invalid value"', () => {
    expect(
      fieldMessages(
        {
          'settings.host': 'host_invalid',
          password: 'password_required',
          'settings.tls': 'Invalid option: expected one of',
          '(input)': 'invalid_value',
        },
        'pt-BR',
      ),
    ).toEqual({
      host: teamLedgerMessages.host_invalid['pt-BR'],
      password: teamLedgerMessages.password_required['pt-BR'],
      tls: teamLedgerMessages.invalid_value['pt-BR'],
    })
  })

  it('fills the form from stored settings without ever a password', () => {
    expect(formOf(null)).toEqual(EMPTY_TEAM_FORM)
    expect(formOf({ host: 'h', port: 1, database: 'd', role: 'r', tls: 'require', caPem: null })).toEqual({
      host: 'h',
      port: '1',
      database: 'd',
      role: 'r',
      password: '',
      tls: 'require',
      caPem: '',
    })
  })

  it('has a sentence in both languages for every test verdict', () => {
    for (const v of TEAM_TEST_VERDICTS) {
      expect(teamTestMessages[v]['pt-BR']).toMatch(/\S/)
      expect(teamTestMessages[v].en).toMatch(/\S/)
      expect(teamTestMessages[v]['pt-BR']).not.toBe(teamTestMessages[v].en)
    }
  })
})
