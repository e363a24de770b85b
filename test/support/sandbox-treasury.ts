/**
 * Pays from the Sandbox treasury wallet as an external wallet would: LWK scans it on the sandbox chain, builds the
 * payment, signs it with the documented sandbox-only mnemonic and broadcasts it through the sandbox's Esplora.
 * Deposit addresses in Liquid form are paid through their regtest twin (same script and blinding key).
 */
import type { Sandbox } from '../../src/main/sandbox'
import {
  SANDBOX_DEPIX,
  SANDBOX_LBTC,
  SANDBOX_TREASURY_MNEMONIC,
  sandboxTreasury,
} from '../../src/main/sandbox/chain'
import { regtestTwin } from '../../src/main/sandbox/chain/keys'
import { loadLwk } from '../../src/main/wallet/lwk'
import { WatchedWallet } from '../../src/main/wallet/watch'

export async function payFromSandboxTreasury(
  sb: Sandbox,
  depositAddress: string,
  units: bigint,
  asset: string = SANDBOX_DEPIX,
): Promise<string> {
  const lwk = loadLwk()
  const treasury = new WatchedWallet({
    descriptor: sandboxTreasury().descriptor,
    network: 'regtest',
    stateFile: null,
    now: () => Date.now(),
  })
  const s = await treasury.scan(sb.esploraUrl)
  if (s.lastFailure !== null) throw new Error(`treasury scan failed: ${s.lastFailure}`)
  const to = new lwk.Address(depositAddress.startsWith('el1') ? depositAddress : regtestTwin(depositAddress))
  const builder = new lwk.TxBuilder(treasury.lwkNetwork)
  const pset = (
    asset === SANDBOX_LBTC
      ? builder.addLbtcRecipient(to, units)
      : builder.addRecipient(to, units, new lwk.AssetId(asset))
  ).finish(treasury.lwkWollet)
  const signer = new lwk.Signer(new lwk.Mnemonic(SANDBOX_TREASURY_MNEMONIC), lwk.Network.regtestDefault())
  const hex = treasury.lwkWollet.finalize(signer.sign(pset)).extractTx().toString()
  treasury.close()
  const r = await fetch(`${sb.esploraUrl}/tx`, { method: 'POST', body: hex })
  if (r.status !== 200) throw new Error(`broadcast refused: ${await r.text()}`)
  return r.text()
}

/**
 * Signs an exported PSET (base64) with LWK's software Signer from the documented sandbox mnemonic, as an external
 * wallet holding the treasury's keys would, and returns the signed PSET (base64) to load back into the app.
 */
export function signAsExternalWallet(base64: string): string {
  const lwk = loadLwk()
  const signer = new lwk.Signer(new lwk.Mnemonic(SANDBOX_TREASURY_MNEMONIC), lwk.Network.regtestDefault())
  try {
    return signer.sign(new lwk.Pset(base64.trim())).toString()
  } finally {
    signer.free()
  }
}
