/**
 * The treasury wallet's CT descriptor, checked before anything keeps it. A descriptor is accepted only when LWK
 * builds a watch-only `Wollet` from it for the profile's network, it carries a blinding key (`ct(...)`), and it
 * holds no spending key: no xprv/tprv, no WIF, no raw private key, no mnemonic words. A refused text is never
 * stored, logged or echoed back: the messages below name the problem, never the text.
 */
import type { LiquidNetwork } from '../liquid/networks'
import type { LiquidMessageLocale } from '../liquid/messages'
import type { Network as LwkNetwork, WolletDescriptor as LwkWolletDescriptor } from 'lwk_wasm'
import { loadLwk, type Lwk } from './lwk'
import { containsWif } from './wif'

export type DescriptorFailure =
  'empty' | 'too_long' | 'private_key' | 'mnemonic' | 'no_blinding_key' | 'wrong_network' | 'invalid'

/** A 2-of-3 with key origins is ~600 characters; 5,000 leaves room for large multisigs and stops pastes of files. */
export const DESCRIPTOR_MAX_LENGTH = 5_000

export const descriptorMessages: Readonly<
  Record<DescriptorFailure, Readonly<Record<LiquidMessageLocale, string>>>
> = {
  empty: {
    'pt-BR': 'Cole o descritor da carteira (começa com "ct(").',
    en: 'Paste the wallet descriptor (it starts with "ct(").',
  },
  too_long: {
    'pt-BR': 'O texto colado é longo demais para um descritor de carteira. Copie só o descritor.',
    en: 'The pasted text is too long for a wallet descriptor. Copy the descriptor only.',
  },
  private_key: {
    'pt-BR':
      'Este descritor contém uma chave privada de gasto (xprv/tprv ou WIF). O app só observa a carteira: exporte da carteira o descritor de observação (só chaves públicas) e cole-o aqui. Nada foi guardado.',
    en: 'This descriptor holds a private spending key (xprv/tprv or WIF). The app only watches the wallet: export the watch-only descriptor (public keys only) and paste it here. Nothing was stored.',
  },
  mnemonic: {
    'pt-BR':
      'Isto parece uma frase de recuperação (palavras-semente). Nunca cole as palavras no app: elas dão acesso ao dinheiro. Nada foi guardado.',
    en: 'This looks like a recovery phrase (seed words). Never paste the words into the app: they give access to the money. Nothing was stored.',
  },
  no_blinding_key: {
    'pt-BR':
      'Falta a chave de cegamento: o descritor precisa começar com "ct(" (descritor confidencial). Sem ela o app não consegue ver os valores na Liquid.',
    en: 'The blinding key is missing: the descriptor must start with "ct(" (a confidential descriptor). Without it the app cannot see amounts on Liquid.',
  },
  wrong_network: {
    'pt-BR': 'Este descritor é da rede {actual}, mas este perfil usa {expected}. Nada foi guardado.',
    en: 'This descriptor is for {actual}, but this profile uses {expected}. Nothing was stored.',
  },
  invalid: {
    'pt-BR':
      'Este texto não é um descritor de carteira Liquid válido. Copie de novo o descritor completo da carteira (Blockstream App, Jade, SideSwap ou Elements).',
    en: 'This text is not a valid Liquid wallet descriptor. Copy the whole descriptor again from the wallet (Blockstream App, Jade, SideSwap or Elements).',
  },
}

export class DescriptorError extends Error {
  constructor(
    readonly reason: DescriptorFailure,
    /** Only for wrong_network: what the descriptor is for. */
    readonly actual?: 'mainnet' | 'test',
  ) {
    super(`descriptor refused: ${reason}`)
    this.name = 'DescriptorError'
  }
}

export function formatDescriptorMessage(
  error: DescriptorError,
  locale: LiquidMessageLocale,
  expected: LiquidNetwork,
): string {
  const template = descriptorMessages[error.reason][locale]
  const actual = error.actual === 'mainnet' ? 'Liquid' : 'Liquid Testnet/Regtest'
  const wanted =
    expected === 'liquid' ? 'Liquid' : expected === 'testnet' ? 'Liquid Testnet' : 'Liquid Regtest'
  return template.replace('{actual}', actual).replace('{expected}', wanted)
}

// Extended private keys of every network/script flavour (xprv, tprv, yprv, zprv, uprv, vprv …).
const EXTENDED_PRIVATE = /\b[xtyzuvYZUV]prv[1-9A-HJ-NP-Za-km-z]{20,}/
// A raw 32-byte key as a script's key (not as the blinding key, which is the viewing key and belongs there).
const RAW_KEY_IN_SCRIPT = /(?:pkh|wpkh|multi|sortedmulti|pk)\([^)]*\b[0-9a-fA-F]{64}\b/
// Twelve or more lowercase words in a row: a BIP39 phrase, which must never be pasted anywhere.
const WORDS = /^(?:[a-z]{3,8}\s+){11,}[a-z]{3,8}$/

/** The descriptor checked and normalized by LWK (with its checksum), ready to store. */
export interface CheckedDescriptor {
  readonly descriptor: string
  readonly multisig: boolean
}

export function networkOf(lwk: Lwk, network: LiquidNetwork, policyAsset?: string): LwkNetwork {
  if (network === 'liquid') return lwk.Network.mainnet()
  if (network === 'testnet') return lwk.Network.testnet()
  return policyAsset === undefined
    ? lwk.Network.regtestDefault()
    : lwk.Network.regtest(new lwk.AssetId(policyAsset))
}

/**
 * Throws DescriptorError (never with the text inside) or returns LWK's normalized descriptor. The cheap textual
 * checks run first so a private key or a phrase never even reaches the parser.
 */
export function checkDescriptor(text: string, network: LiquidNetwork): CheckedDescriptor {
  const trimmed = text.trim()
  if (trimmed === '') throw new DescriptorError('empty')
  if (trimmed.length > DESCRIPTOR_MAX_LENGTH) throw new DescriptorError('too_long')
  if (WORDS.test(trimmed.toLowerCase())) throw new DescriptorError('mnemonic')
  if (EXTENDED_PRIVATE.test(trimmed) || containsWif(trimmed) || RAW_KEY_IN_SCRIPT.test(trimmed)) {
    throw new DescriptorError('private_key')
  }
  if (!/^ct\(/.test(trimmed)) throw new DescriptorError('no_blinding_key')
  const lwk = loadLwk()
  let parsed: LwkWolletDescriptor
  try {
    parsed = new lwk.WolletDescriptor(trimmed)
  } catch {
    throw new DescriptorError('invalid')
  }
  try {
    const mainnet = parsed.isMainnet()
    if (mainnet !== (network === 'liquid'))
      throw new DescriptorError('wrong_network', mainnet ? 'mainnet' : 'test')
    const normalized = parsed.toString()
    // LWK's own last word: it must build a watch-only wallet from it on this network.
    const wollet = new lwk.Wollet(networkOf(lwk, network), parsed)
    wollet.free()
    return { descriptor: normalized, multisig: /multi\(/.test(normalized) }
  } catch (e) {
    if (e instanceof DescriptorError) throw e
    throw new DescriptorError('invalid')
  } finally {
    try {
      parsed.free()
    } catch {
      // already consumed by the Wollet constructor
    }
  }
}
