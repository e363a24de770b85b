/**
 * The PSET builder's worker (a module of its own: electron-vite builds it from the `?modulePath` import in
 * build-worker-path.ts). It loads LWK, replays the watched wallet from the updates main passed, runs LWK's
 * `TxBuilder.finish` and posts the PSET (base64), or `short` when LWK found too few coins. Nothing else: the
 * review happens on main against main's own wallet.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { networkOf } from '../descriptor'
import { loadLwk } from '../lwk'
import { replayWollet } from '../replay'
import { finishPset } from './build'
import { workerInputSchema } from './off-thread'

try {
  const input = workerInputSchema.parse(workerData)
  const lwk = loadLwk()
  const wollet = replayWollet(lwk, input.wallet)
  const network = networkOf(lwk, input.wallet.network, input.wallet.policyAsset)
  const pset = finishPset(lwk, network, wollet, { ...input.request, missingIfShort: 0n })
  parentPort?.postMessage(pset === null ? { short: true } : { pset })
} catch (e) {
  parentPort?.postMessage({ error: e instanceof Error ? e.name : 'error' })
}
