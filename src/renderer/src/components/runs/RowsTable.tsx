/** Every row of the run with its outcome; virtualized, so a 1,000-row run keeps only what is on screen. */
import { useVirtualizer } from '@tanstack/react-virtual'
import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { RunDetailView } from '../../../../shared/channels-runs'
import { formatBRL } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { SafeText } from '../SafeText'

const ROW_HEIGHT = 36

export function RowsTable({ rows }: { rows: RunDetailView['rows'] }): React.JSX.Element {
  const { t } = useTranslation('runs')
  const lang = currentLanguage()
  const scroller = useRef<HTMLDivElement>(null)
  // TanStack Virtual is knowingly not memoizable by the React Compiler; the table re-renders on scroll anyway.
  // eslint-disable-next-line react-hooks/incompatible-library
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  })
  const items = v.getVirtualItems()
  const top = items[0]?.start ?? 0
  const bottom = v.getTotalSize() - (items.at(-1)?.end ?? 0)
  return (
    <section className="card" aria-labelledby="run-rows-heading">
      <h3 id="run-rows-heading">{t('rows.heading')}</h3>
      {/* A scrolling box is a stop for the keyboard (arrows scroll it), named by the section's heading. */}
      <div
        ref={scroller}
        className="run-rows-scroll"
        style={{ maxHeight: 420, overflowY: 'auto' }}
        tabIndex={0}
        role="region"
        aria-labelledby="run-rows-heading"
      >
        <table className="data data-grid" data-testid="run-rows" data-count={rows.length}>
          <thead>
            <tr>
              <th scope="col">{t('rows.line')}</th>
              <th scope="col">{t('rows.payee')}</th>
              <th scope="col">{t('rows.key')}</th>
              <th scope="col" className="num-col">
                {t('rows.amount')}
              </th>
              <th scope="col">{t('rows.wave')}</th>
              <th scope="col">{t('rows.outcome')}</th>
            </tr>
          </thead>
          <tbody>
            {top > 0 && (
              <tr aria-hidden="true" style={{ height: top }}>
                <td colSpan={6} />
              </tr>
            )}
            {items.map((it) => {
              const r = rows[it.index]!
              const a = r.draft.amount
              return (
                <tr key={r.idx} style={{ height: ROW_HEIGHT }} data-line={r.line} data-outcome={r.outcome}>
                  <td className="num">{r.line}</td>
                  <td>{r.payee.name ? <SafeText text={r.payee.name} /> : '—'}</td>
                  <td>
                    <SafeText text={r.draft.pixKey} />
                  </td>
                  <td className="num num-col">{formatBRL(a.cents, lang)}</td>
                  <td className="num">{r.wave ?? '—'}</td>
                  <td>{t(`outcome.${r.outcome}`)}</td>
                </tr>
              )
            })}
            {bottom > 0 && (
              <tr aria-hidden="true" style={{ height: bottom }}>
                <td colSpan={6} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  )
}
