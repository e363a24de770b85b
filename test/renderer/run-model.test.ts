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

describe('the run heading on screen', () => {
  it('a "completed" run with 0 of 20 paid reads "Em processamento · 0 de 20 pagos", never "Concluído"', async () => {
    const { renderToStaticMarkup } = await import('react-dom/server')
    const { createElement } = await import('react')
    const { RunHeading } = await import('../../src/renderer/src/pages/RunsPage')
    const { default: i18n } = await import('../../src/renderer/src/i18n')
    await i18n.changeLanguage('pt-BR')
    const detail = {
      run: { name: 'Folha de novembro', state: 'completed' },
      progress: { total: 20, paid: 0, counts: { created: 20 } },
    }
    const text = renderToStaticMarkup(createElement(RunHeading, { detail: detail as never })).replace(
      /<[^>]+>/g,
      '',
    )
    expect(text).toBe('Folha de novembro Em processamento 0 de 20 pagos')
    expect(text).not.toContain('Concluído')
    const settled = { ...detail, progress: { total: 20, paid: 20, counts: { paid: 20 } } }
    expect(
      renderToStaticMarkup(createElement(RunHeading, { detail: settled as never })).replace(/<[^>]+>/g, ''),
    ).toBe('Folha de novembro Liquidado 20 de 20 pagos')
  })
})
