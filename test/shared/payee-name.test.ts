/**
 * The payee's name as a person reads it (issue #26, names first): the book entry, else the name typed on the run's
 * spreadsheet row, else what the service reported; never a blank name.
 */
import { describe, expect, it } from 'vitest'
import { payeeNameOf } from '../../src/shared/payee-name'

const book = { id: 'p1', name: 'Fornecedora do Cadastro', taxNumber: '11222333000181' }
const reported = { lastRemote: { receiverName: 'Nome Informado' }, receiverName: 'Nome Antigo' }

describe('payeeNameOf', () => {
  it('prefers the book, then the spreadsheet row, then the reported name, then the stored one', () => {
    expect(payeeNameOf({ expectedPayee: book, ...reported }, 'Da Planilha')).toBe('Fornecedora do Cadastro')
    expect(payeeNameOf({ ...reported }, 'Da Planilha')).toBe('Da Planilha')
    expect(payeeNameOf({ ...reported })).toBe('Nome Informado')
    expect(payeeNameOf({ lastRemote: null, receiverName: 'Nome Antigo' })).toBe('Nome Antigo')
  })

  it('skips blank names at every step', () => {
    expect(payeeNameOf({ lastRemote: { receiverName: '  ' }, receiverName: null }, '   ')).toBeNull()
    expect(payeeNameOf({ lastRemote: null, receiverName: 'Nome Antigo' }, '')).toBe('Nome Antigo')
  })
})
