import { describe, expect, it } from 'vitest'
import {
  checkDescriptor,
  DescriptorError,
  descriptorMessages,
  formatDescriptorMessage,
  type DescriptorFailure,
} from '../../../src/main/wallet/descriptor'
import { isSecretKey, profileSecretKey } from '../../../src/main/secrets/vault'
import { mnemonicWords, multisigRegtest, singlesigMainnet, singlesigRegtest } from './fixtures'

const refusal = (text: string, network: 'liquid' | 'testnet' | 'regtest' = 'regtest'): DescriptorFailure => {
  try {
    checkDescriptor(text, network)
  } catch (e) {
    expect(e).toBeInstanceOf(DescriptorError)
    // Never the pasted text in the error: it may be a key.
    expect((e as Error).message).not.toContain(text.slice(0, 12))
    return (e as DescriptorError).reason
  }
  throw new Error('accepted')
}

// BIP32 test vector 1's master xprv/tprv-like strings: shapes only, never funded.
const XPRV =
  'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi'
const TPRV =
  'tprv8ZgxMBicQKsPd7Uf69XL1XwhmjHopUGep8GuEiJDZmbQz6o58LninorQAfcKZWARbtRtfnLcJ5MQ2AtHcQJCCRUcMRvmDUjyEmNUWwx8UbK'
const WIF_COMPRESSED = 'KwDiBf89QgGbjEhKnhXJuH7LrciVrZi3qYjgd9M7rFU73sVHnoWn'
// The testnet WIF of the same key (0x01): version 0xef, compressed.
const WIF_TESTNET = 'cMahea7zqjxrtgAbB7LSGbcQUr1uX1ojuat9jZodMN87JcbXMTcA'

describe('checkDescriptor: accepted', () => {
  it('a singlesig CT descriptor (elwpkh + slip77) for the profile network, normalized with its checksum', () => {
    const text = singlesigRegtest()
    const checked = checkDescriptor(`  ${text}\n`, 'regtest')
    expect(checked).toEqual({ descriptor: text, multisig: false })
    // Testnet profiles take test descriptors too (tpub); LWK cannot tell testnet from regtest keys apart.
    expect(checkDescriptor(text, 'testnet').descriptor).toBe(text)
    expect(checkDescriptor(singlesigMainnet(), 'liquid').descriptor).toBe(singlesigMainnet())
  })

  it('a 2-of-3 wsh(multi) CT descriptor', () => {
    const text = multisigRegtest()
    expect(text).toMatch(/^ct\(slip77\([0-9a-f]{64}\),elwsh\(multi\(2,/)
    expect(checkDescriptor(text, 'regtest')).toEqual({ descriptor: text, multisig: true })
  })
})

describe('checkDescriptor: refused, with the reason', () => {
  it('wrong network, both ways, saying which network it is for', () => {
    expect(refusal(singlesigMainnet(), 'regtest')).toBe('wrong_network')
    expect(refusal(singlesigRegtest(), 'liquid')).toBe('wrong_network')
    try {
      checkDescriptor(singlesigMainnet(), 'testnet')
    } catch (e) {
      expect(formatDescriptorMessage(e as DescriptorError, 'pt-BR', 'testnet')).toBe(
        'Este descritor é da rede Liquid, mas este perfil usa Liquid Testnet. Nada foi guardado.',
      )
    }
  })

  it('no blinding key: the same wallet without ct(...)', () => {
    const bare = singlesigRegtest()
      .replace(/^ct\(slip77\([0-9a-f]+\),/, '')
      .replace(/\)#.*$/, '')
    expect(bare.startsWith('elwpkh(')).toBe(true)
    expect(refusal(bare)).toBe('no_blinding_key')
  })

  it('any private key: xprv, tprv, WIF, a raw 32-byte key in a script', () => {
    const d = singlesigRegtest()
    const tpub = /tpub[1-9A-HJ-NP-Za-km-z]+/.exec(d)?.[0] as string
    expect(refusal(d.replace(tpub, TPRV))).toBe('private_key')
    expect(refusal(d.replace(tpub, XPRV))).toBe('private_key')
    expect(refusal(`ct(slip77(${'ab'.repeat(32)}),elwpkh(${WIF_COMPRESSED}))`)).toBe('private_key')
    expect(refusal(`ct(slip77(${'ab'.repeat(32)}),elwpkh(${'11'.repeat(32)}))`)).toBe('private_key')
    // The check runs before anything else: a private key is refused as such even on the wrong network.
    expect(refusal(d.replace(tpub, TPRV), 'liquid')).toBe('private_key')
  })

  it('a SLIP-77 key in hex shaped like a WIF (51 base58 characters from a 9) is a blinding key, not a private key', () => {
    // LWK's own descriptor for the regtest signer of seed 61: its slip77 key starts with 9 and has no 0 for 52
    // characters. The shape test alone refused it; a WIF's checksum does not hold on it.
    const d = singlesigRegtest(61)
    expect(/slip77\(9[1-9a-f]{51}/.test(d)).toBe(true)
    expect(checkDescriptor(d, 'regtest').descriptor).toBe(d)
    // …while a real testnet WIF (version 0xef, compressed) is still refused, alone or beside a slip77 key.
    expect(refusal(`ct(slip77(${'ab'.repeat(32)}),elwpkh(${WIF_TESTNET}))`)).toBe('private_key')
    expect(refusal(`${WIF_COMPRESSED}`)).toBe('private_key')
    // One character changed: the checksum fails, it is not a key (LWK then refuses it as unparsable).
    expect(refusal(`ct(slip77(${'ab'.repeat(32)}),elwpkh(${WIF_TESTNET.slice(0, -1)}x))`)).toBe('invalid')
  })

  it('mnemonic words (12 and 24), whatever the spacing and case', () => {
    expect(refusal(mnemonicWords(3))).toBe('mnemonic')
    expect(refusal(`${mnemonicWords(4)} ${mnemonicWords(5)}`.toUpperCase().replace(/ /g, '\n  '))).toBe(
      'mnemonic',
    )
  })

  it('empty, oversized, and anything LWK does not parse', () => {
    expect(refusal('   ')).toBe('empty')
    expect(refusal(`ct(${'a'.repeat(6000)})`)).toBe('too_long')
    expect(refusal('ct(slip77(00),elwpkh(nonsense))')).toBe('invalid')
    expect(refusal(singlesigRegtest().replace(/#.*$/, '#aaaaaaaa'))).toBe('invalid') // bad checksum
  })

  it('every reason has a pt-BR and an English message; none contains placeholders but wrong_network', () => {
    for (const [reason, m] of Object.entries(descriptorMessages)) {
      expect(m['pt-BR'].length).toBeGreaterThan(20)
      expect(m.en.length).toBeGreaterThan(20)
      if (reason !== 'wrong_network') expect(m['pt-BR']).not.toMatch(/\{/)
    }
  })
})

describe('the vault keeps the descriptor under its own key', () => {
  it('profile:<id>:walletDescriptor is a vault key', () => {
    expect(profileSecretKey('p1', 'walletDescriptor')).toBe('profile:p1:walletDescriptor')
    expect(isSecretKey('profile:p1:walletDescriptor')).toBe(true)
    expect(isSecretKey('profile:p1:walletSeed')).toBe(false)
  })
})
