/** Waves and control: the proposed size, "create wave", progress, next create slot, pause / resume / cancel. */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ChannelName, IpcError } from '../../../../shared/contract'
import type { RunDetailView } from '../../../../shared/channels-runs'
import type { PayAttemptDto } from '../../../../shared/channels-wallet-pay'
import { call } from '../../ipc'
import { DateCell } from '../ui/cells'
import { DataTable } from '../ui/DataTable'
import { StatusChip } from '../ui/StatusChip'
import { Button } from '../ui/Button'
import { Toolbar } from '../ui/Toolbar'
import { RunErrorNotice } from './run-error'
import { WalletPayPanel } from '../wallet/WalletPayPanel'

type Control = Extract<ChannelName, 'runs:pause' | 'runs:resume' | 'runs:cancel'>

function Bar({
  label,
  done,
  total,
  id,
}: {
  label: string
  done: number
  total: number
  id: string
}): React.JSX.Element {
  const { t } = useTranslation('runs')
  return (
    <div className="run-progress-line">
      <span id={`${id}-label`}>{label}</span>{' '}
      <progress
        aria-labelledby={`${id}-label`}
        max={Math.max(1, total)}
        value={done}
        data-testid={id}
        data-done={done}
      />{' '}
      <span className="num">{t('progress.of', { done, total })}</span>
    </div>
  )
}

export function WavePanel({
  detail,
  onChange,
}: {
  detail: RunDetailView
  onChange: (d: RunDetailView) => void
}): React.JSX.Element {
  const { t } = useTranslation('runs')
  const { run, progress, proposal } = detail
  const [size, setSize] = useState('')
  const [error, setError] = useState<IpcError | null>(null)
  const total = progress.total - progress.counts.dropped
  // Issue #28: the run's payments created and still waiting for their deposit.
  const awaiting = detail.rows.flatMap((r) =>
    r.outcome === 'created' && r.localId !== null ? [r.localId] : [],
  )

  const start = async (): Promise<void> => {
    setError(null)
    const n = Number.parseInt(size, 10)
    const r = await call('runs:startWave', {
      runId: run.runId,
      ...(Number.isSafeInteger(n) && n > 0 ? { size: n } : {}),
    })
    if (r.ok) onChange(r.data)
    else setError(r.error)
  }
  // The wallet paid every payment the wave waits for in one recorded transaction: the wave is funded with its txid
  // (what "Onda depositada" records; the payments already carry the txid).
  const walletPaid = async (a: PayAttemptDto): Promise<void> => {
    const paid = new Set(a.lines.map((l) => l.localId))
    if (run.state !== 'awaiting_funding' || !awaiting.every((id) => paid.has(id))) return
    setError(null)
    const r = await call('runs:markWaveFunded', { runId: run.runId, wave: run.wave, txId: a.txid })
    if (r.ok) onChange(r.data)
    else setError(r.error)
  }
  const control = async (channel: Control): Promise<void> => {
    setError(null)
    if (channel === 'runs:cancel' && !window.confirm(t('wave.cancelConfirm'))) return
    const r = await call(channel, { runId: run.runId })
    if (r.ok) onChange(r.data)
    else setError(r.error)
  }

  return (
    <section className="card" aria-labelledby="run-wave-heading">
      <h3 id="run-wave-heading">{t('wave.heading')}</h3>
      <div role="group" aria-label={t('progress.label')} data-testid="run-progress">
        <Bar id="progress-created" label={t('progress.created')} done={progress.created} total={total} />
        <Bar id="progress-funded" label={t('progress.funded')} done={progress.funded} total={total} />
        <Bar id="progress-paid" label={t('progress.paid')} done={progress.paid} total={total} />
        <Bar id="progress-returned" label={t('progress.returned')} done={progress.returned} total={total} />
      </div>
      <p data-testid="next-slot">
        {detail.nextCreateInMs > 0
          ? t('wave.nextSlot', { seconds: Math.ceil(detail.nextCreateInMs / 1000) })
          : t('wave.slotFree')}
      </p>
      {detail.notice && (
        <p role="status" data-testid="run-notice">
          {t('wave.cutLifetime', {
            n: detail.notice.wave,
            seconds: Math.round(detail.notice.lifetimeMs / 1000),
            count: detail.notice.deferred,
          })}
        </p>
      )}
      {run.state === 'creating' && detail.takeover && <p>{t('wave.elsewhere')}</p>}
      {proposal && proposal.size > 0 && (
        <div data-testid="wave-proposal" data-size={proposal.size}>
          <p>
            {t('wave.proposal', {
              size: proposal.size,
              minutes: Math.ceil(proposal.creationMs / 60_000),
              deadline: Math.floor(proposal.firstDeadlineMs / 60_000),
            })}
          </p>
          {proposal.assumed && <p className="muted">{t('wave.assumed')}</p>}
          {run.state === 'approved' && (
            <p>
              <label className="field-inline">
                {t('wave.size')}{' '}
                <input
                  inputMode="numeric"
                  size={5}
                  placeholder={String(proposal.size)}
                  value={size}
                  onChange={(e) => setSize(e.target.value)}
                />
              </label>{' '}
              <button type="button" className="btn btn-primary" onClick={() => void start()}>
                {t('wave.start')}
              </button>
            </p>
          )}
        </div>
      )}
      <Toolbar
        end={
          run.state !== 'completed' &&
          run.state !== 'cancelled' &&
          run.state !== 'draft' && (
            <Button variant="destructive" onClick={() => void control('runs:cancel')}>
              {t('wave.cancel')}
            </Button>
          )
        }
      >
        {run.state === 'creating' && (
          <Button onClick={() => void control('runs:pause')}>{t('wave.pause')}</Button>
        )}
        {run.state === 'paused' && (
          <Button variant="primary" onClick={() => void control('runs:resume')}>
            {t('wave.resume')}
          </Button>
        )}
        {run.state === 'creating' && detail.takeover && (
          <Button variant="primary" onClick={() => void control('runs:resume')} data-testid="run-take-over">
            {t('wave.takeOver')}
          </Button>
        )}
      </Toolbar>
      {detail.waves.length > 0 && (
        <DataTable
          testId="run-waves"
          caption={t('wave.table.caption')}
          rows={detail.waves}
          rowKey={(w) => String(w.wave)}
          rowProps={(w) => ({ 'data-wave': String(w.wave) })}
          columns={[
            { id: 'wave', header: t('wave.table.wave'), numeric: true, cell: (w) => w.wave },
            { id: 'planned', header: t('wave.table.payments'), numeric: true, cell: (w) => w.planned },
            {
              id: 'deposit',
              header: t('wave.table.deposit'),
              cell: (w) =>
                w.fundedAt ? (
                  <StatusChip tone="success">{t('wave.table.funded')}</StatusChip>
                ) : (
                  <StatusChip tone="pending">{t('wave.table.notFunded')}</StatusChip>
                ),
            },
            { id: 'fundedAt', header: t('wave.table.fundedAt'), cell: (w) => <DateCell iso={w.fundedAt} /> },
          ]}
        />
      )}
      {error && <RunErrorNotice error={error} />}
      {run.state !== 'draft' && (
        // One panel per wave: a new wave starts from "Pagar a onda com a carteira" again.
        <WalletPayPanel key={run.wave} localIds={awaiting} onRecorded={(a) => void walletPaid(a)} />
      )}
    </section>
  )
}
