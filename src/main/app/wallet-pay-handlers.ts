/**
 * Paying from the wallet's channels (issue #28): one PayService per profile over the profile's watched wallet
 * (WalletService.payTarget), its withdrawal service (fresh status, markFunded) and its attempts file. Refusals
 * cross as `pay_<code>` with the sentence in both languages; recovery runs once per profile on first use.
 */
import type { PayAttemptDto, walletPayChannels } from '../../shared/channels-wallet-pay'
import type { HandlersOf } from '../ipc/router'
import { SANDBOX_TREASURY_MNEMONIC } from '../sandbox/chain'
import { regtestTwin } from '../sandbox/chain/keys'
import { PayAttempts, type Attempt } from '../wallet/pay/attempts'
import { PayRefusal } from '../wallet/pay/errors'
import { payRefusalMessage } from '../wallet/pay/messages'
import { buildWorkerPath } from '../wallet/pay/build-worker-path'
import { psetFileName, psetFileText, psetQr, readPsetFile } from '../wallet/pay/pset-file'
import { PayService } from '../wallet/pay/service'
import { writeFileAtomic } from '../secrets/atomic-file'
import { pgFundingGuard, type FundingGuard } from '../wallet/pay/team-guard'
import type { WalletPayDeps } from './deps'
import { engineOf } from './engine'
import { AppError } from './errors'
import { isJsonObject, pinServerUrl, postToPinServer } from '../wallet/pay/pin-server'

export function toAttemptDto(a: Attempt): PayAttemptDto {
  return {
    id: a.id,
    state: a.state,
    txid: a.txid,
    createdAt: a.createdAt,
    operator: a.operator,
    lines: a.lines.map((l) => ({ ...l, depixUnits: l.units })),
    totalCents: a.lines.reduce((s, l) => s + l.cents, 0),
    totalUnits: a.lines.reduce((s, l) => s + BigInt(l.units), 0n).toString(),
    feeUnits: a.feeUnits,
    lastError: a.lastError,
  }
}

function refused(e: PayRefusal): AppError {
  const msg = payRefusalMessage(e)
  return new AppError(`pay_${e.code}`, msg.en, {
    userMessage: msg,
    ...(e.details.localId ? { localIds: [e.details.localId] } : {}),
    ...(e.details.problem || e.details.what ? { reason: e.details.problem ?? e.details.what } : {}),
  })
}

async function mapped<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (e) {
    throw e instanceof PayRefusal ? refused(e) : e
  }
}

/** A team profile's guard, on the team connection current at each call (it may reconnect). */
function teamGuard(deps: WalletPayDeps): FundingGuard {
  const pool = () => {
    const engine = engineOf(deps.runtime())
    const pg = engine.kind === 'postgres' ? engine.pg : null
    if (!pg) throw new PayRefusal('illegal_state', { what: 'team ledger not connected' })
    return pgFundingGuard(pg.pool)
  }
  return {
    claim: (id, ids, txid) => pool().claim(id, ids, txid),
    release: (id) => pool().release(id),
    recorded: (id) => pool().recorded(id),
  }
}

export function walletPayHandlers(deps: WalletPayDeps): HandlersOf<typeof walletPayChannels> {
  const { operator } = deps
  const services = new Map<string, { pay: PayService; attempts: PayAttempts; recovered: Promise<unknown> }>()
  const current = () => {
    const rt = deps.runtime()
    const p = rt.profile
    const known = services.get(p.id)
    if (known) return known
    const target = deps.wallet.payTarget(p)
    if (target === null)
      throw new AppError('wallet_not_configured', 'This profile has no treasury wallet to pay from.')
    const attempts = new PayAttempts(target.attemptsFile)
    const pay = new PayService({
      profile: p.id,
      network: p.network,
      operator,
      assets: {
        depix: target.depixAsset,
        lbtc: target.policyAsset,
        // Sandbox only: its lq1 deposit addresses are paid through their regtest twin on its regtest chain.
        ...(p.kind === 'sandbox' ? { chainAddress: regtestTwin } : {}),
      },
      wallet: target.wallet,
      esploraUrl: target.esploraUrl,
      attempts,
      refresh: (id) => deps.runtime().withdrawals.refresh(id),
      markFundedMany: (ids, txId) => deps.runtime().withdrawals.markFundedMany(ids, { txId }),
      now: () => Date.now(),
      buildWorker: buildWorkerPath,
      progress: (p) => deps.emit('walletPay:progress', p),
      ...(p.kind === 'sandbox' ? { sandboxMnemonic: SANDBOX_TREASURY_MNEMONIC } : {}),
      ...(engineOf(rt).kind === 'postgres' ? { guard: teamGuard(deps) } : {}),
    })
    const entry = { pay, attempts, recovered: pay.recover().catch(() => undefined) }
    services.set(p.id, entry)
    return entry
  }
  const ready = async () => {
    const s = current()
    await s.recovered
    return s
  }
  return {
    'walletPay:build': ({ selected }) =>
      mapped(async () => {
        const s = await ready()
        const r = await s.pay.build(selected)
        return {
          attempt: toAttemptDto(r.attempt),
          depixAfterUnits: r.review.depixAfter.toString(),
          lbtcAfterUnits: r.review.lbtcAfter.toString(),
        }
      }),
    'walletPay:list': () =>
      mapped(async () => {
        const s = await ready()
        return s.attempts.all().reverse().map(toAttemptDto)
      }),
    'walletPay:export': ({ id }) =>
      mapped(async () => {
        const s = await ready()
        return { pset: s.pay.exportPset(id), ...s.pay.signingNeeds(id) }
      }),
    'walletPay:jadePinServer': async ({ url, body }) => {
      const to = pinServerUrl(url)
      if (to === null || !isJsonObject(body))
        throw new AppError(
          'pin_server_not_allowed',
          "Only a Jade handshake to Blockstream's PIN server is relayed.",
        )
      try {
        return await (deps.pinServerPost ?? postToPinServer)(to, body)
      } catch {
        throw new AppError('pin_server_unreachable', "Blockstream's PIN server did not answer.")
      }
    },
    'walletPay:import': ({ id, pset }) =>
      mapped(async () => {
        const r = (await ready()).pay.importSigned(id, pset)
        return { attempt: toAttemptDto(r.attempt), missing: r.missing }
      }),
    'walletPay:savePset': ({ id }) =>
      mapped(async () => {
        const s = await ready()
        const pset = s.pay.exportPset(id)
        const choose = deps.chooseSavePath
        if (!choose) throw new AppError('not_supported', 'Saving is not available here.')
        const a = s.attempts.get(id)
        const target = await choose(psetFileName(a?.txid ?? id, a?.pset !== a?.built))
        if (target === null) return { saved: false }
        writeFileAtomic(target, psetFileText(pset))
        return { saved: true }
      }),
    'walletPay:loadSigned': ({ id }) =>
      mapped(async () => {
        const s = await ready()
        // Refused before the dialog when there is nothing to sign (an attempt already signed or recorded).
        s.pay.exportPset(id)
        const choose = deps.chooseFile
        if (!choose) throw new AppError('not_supported', 'This build has no file dialog.')
        const path = await choose('pset_import')
        if (path === null) return null
        const r = s.pay.importSigned(id, readPsetFile(path))
        return { attempt: toAttemptDto(r.attempt), missing: r.missing }
      }),
    'walletPay:qr': ({ id }) => mapped(async () => psetQr((await ready()).pay.exportPset(id))),
    'walletPay:signSandbox': ({ id }) =>
      mapped(async () => {
        const r = (await ready()).pay.signWithSandbox(id)
        return { attempt: toAttemptDto(r.attempt), missing: r.missing }
      }),
    'walletPay:broadcast': ({ id }) =>
      mapped(async () => toAttemptDto(await (await ready()).pay.broadcast(id))),
    'walletPay:cancel': ({ id }) => mapped(async () => toAttemptDto(await (await ready()).pay.cancel(id))),
  }
}
