/** Descriptors and signers for wallet tests: fixed test-only seeds, never funded outside a sandbox. */
import { loadLwk } from '../../../src/main/wallet/lwk'

const lwk = loadLwk()
const entropy = (n: number): Uint8Array => new Uint8Array(16).fill(n)

export const regtestSigner = (n: number) =>
  new lwk.Signer(lwk.Mnemonic.fromEntropy(entropy(n)), lwk.Network.regtestDefault())

export const singlesigRegtest = (n = 1): string => regtestSigner(n).wpkhSlip77Descriptor().toString()

export const singlesigMainnet = (n = 1): string =>
  new lwk.Signer(lwk.Mnemonic.fromEntropy(entropy(n)), lwk.Network.mainnet())
    .wpkhSlip77Descriptor()
    .toString()

/** 2-of-3 `wsh(multi)` with a SLIP-77 blinding key, from three regtest signers' BIP87 key-origin xpubs. */
export const multisigRegtest = (): string =>
  lwk.WolletDescriptor.newMultiWshSlip77(
    2,
    [11, 12, 13].map((n) => regtestSigner(n).keyoriginXpub(lwk.Bip.bip87())),
  ).toString()

export const mnemonicWords = (n: number): string => lwk.Mnemonic.fromEntropy(entropy(n)).toString()
