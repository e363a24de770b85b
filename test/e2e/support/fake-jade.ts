/**
 * A FAKE Blockstream Jade for the "Jade over USB" E2E (issue #28): not Jade firmware, but the device side of the
 * CBOR RPC exactly as LWK 0.13.1's Jade code speaks it (lwk_jade `asyncr::Jade::send`: one CBOR request
 * `{id, method, params}`, one CBOR reply `{id, result}` or `{id, error: {code, message}}`), so LWK's real Jade
 * code runs against it in the real renderer. It answers what LWK asks when signing a single-sig PSET:
 * get_version_info, auth_user, get_xpub (master), get_registered_multisigs (none), sign_liquid_tx, then tx_input
 * and get_signature per input — each signature a real ECDSA signature of the input's segwit-v0 Elements sighash
 * (liquidjs-lib), by the key at the requested path of a test mnemonic. A LOCKED one answers auth_user with the
 * PIN-server handshake's shape (an `http_request` to post, `handshake_init`, then `handshake_complete`), and is
 * unlocked when the (test's) PIN server's last answer says so — a stand-in for the PIN the person types.
 *
 * What it does not do (a real Jade does): show anything or wait for a person, verify the outputs or the
 * commitments it is given, anti-exfil (it answers the host's commitment with zeros, which LWK does not check),
 * the handshake's cryptography (its messages are placeholders), multisig registration.
 */
import { createHmac, pbkdf2Sync } from 'node:crypto'
import secp256k1 from '@vulpemventures/secp256k1-zkp'
import { script, Transaction } from 'liquidjs-lib'
import { loadLwk } from '../../../src/main/wallet/lwk'
import { decodeCbor, encodeCbor, type Cbor } from './cbor'

export type FakeJadeState = 'READY' | 'LOCKED' | 'UNINIT'

export interface FakeJadeOptions {
  mnemonic: string
  state?: FakeJadeState
  /** answers sign_liquid_tx with the error a Jade sends when the person declines on the device */
  refuseSigning?: boolean
  /** the PIN server a LOCKED one names in its handshake (default Blockstream's current one) */
  pinServer?: string
}

/** What the test's PIN server answers `get_pin` with when the PIN typed on the (fake) Jade is right. */
export const PIN_RIGHT = 'unlocks'

/** One request as the fake Jade received it (method and the params that matter to the tests). */
export interface SeenRequest {
  method: string
  params: Cbor
}

/** Jade's CBOR_RPC_USER_CANCELLED. */
const USER_CANCELLED = -32000
const HARDENED = 0x80000000

interface Node {
  key: Uint8Array
  chain: Uint8Array
}

export class FakeJade {
  readonly seen: SeenRequest[] = []
  private inbox = new Uint8Array(0)
  private readonly master: Node
  private readonly xpub: string
  /** sighashes of the inputs given by tx_input, signed in order by get_signature */
  private pending: Array<{ hash: Buffer; path: number[] }> = []
  private tx: Transaction | null = null
  private inputIndex = 0
  private state: FakeJadeState

  private constructor(
    private readonly o: FakeJadeOptions,
    private readonly ecc: Awaited<ReturnType<typeof secp256k1>>['ecc'],
  ) {
    this.state = o.state ?? 'READY'
    const seed = pbkdf2Sync(o.mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512')
    const i = createHmac('sha512', 'Bitcoin seed').update(seed).digest()
    this.master = { key: i.subarray(0, 32), chain: i.subarray(32) }
    const lwk = loadLwk()
    this.xpub = new lwk.Signer(new lwk.Mnemonic(o.mnemonic), lwk.Network.regtestDefault())
      .getMasterXpub()
      .toString()
  }

  static async create(o: FakeJadeOptions): Promise<FakeJade> {
    return new FakeJade(o, (await secp256k1()).ecc)
  }

  get methods(): string[] {
    return this.seen.map((r) => r.method)
  }

  /** Bytes from the host; returns the bytes the device sends back (nothing until a request is whole). */
  receive(bytes: Uint8Array): Uint8Array[] {
    const joined = new Uint8Array(this.inbox.length + bytes.length)
    joined.set(this.inbox)
    joined.set(bytes, this.inbox.length)
    this.inbox = joined
    const replies: Uint8Array[] = []
    for (let item = decodeCbor(this.inbox); item !== null; item = decodeCbor(this.inbox)) {
      this.inbox = this.inbox.slice(item.length)
      replies.push(encodeCbor(this.answer(item.value)))
    }
    return replies
  }

  private answer(request: Cbor): Cbor {
    if (
      request === null ||
      typeof request !== 'object' ||
      Array.isArray(request) ||
      request instanceof Uint8Array
    )
      throw new Error('fake jade: a request is a CBOR map')
    const id = request['id'] as string
    const method = request['method'] as string
    const params = request['params'] ?? null
    this.seen.push({ method, params })
    const ok = (result: Cbor): Cbor => ({ id, result })
    const fail = (code: number, message: string): Cbor => ({ id, error: { code, message, data: null } })
    const p = (params ?? {}) as { [k: string]: Cbor }
    switch (method) {
      case 'get_version_info':
        return ok({
          JADE_VERSION: '1.0.36-fake',
          JADE_OTA_MAX_CHUNK: 4096,
          JADE_CONFIG: 'NORADIO',
          BOARD_TYPE: 'JADE_V2',
          JADE_FEATURES: 'SB',
          IDF_VERSION: 'v5.3.2',
          CHIP_FEATURES: '32000000',
          EFUSEMAC: 'AABBCCDDEEFF',
          BATTERY_STATUS: 5,
          JADE_STATE: this.state,
          JADE_NETWORKS: 'TEST',
          JADE_HAS_PIN: true,
        })
      case 'auth_user':
        // Unlocked: LWK's `IsAuthResult::AlreadyAuth(true)`; locked: the first request of the handshake.
        if (this.state === 'READY') return ok(true)
        if (this.state === 'UNINIT') return ok(false)
        return ok(this.httpRequest('start_handshake', {}, 'handshake_init'))
      case 'handshake_init':
        return ok(
          this.httpRequest(
            'get_pin',
            { cke: '03cd', encrypted_data: 'ef01', hmac: '2345' },
            'handshake_complete',
          ),
        )
      case 'handshake_complete':
        if (p['encrypted_key'] !== PIN_RIGHT) return ok(false)
        this.state = 'READY'
        return ok(true)
      case 'get_xpub':
        if (!Array.isArray(p['path']) || p['path'].length !== 0) return fail(-32602, 'fake jade: master only')
        return ok(this.xpub)
      case 'get_registered_multisigs':
        return ok({})
      case 'sign_liquid_tx':
        if (this.o.refuseSigning) return fail(USER_CANCELLED, 'User declined to sign transaction')
        this.tx = Transaction.fromBuffer(Buffer.from(p['txn'] as Uint8Array))
        this.inputIndex = 0
        this.pending = []
        return ok(true)
      case 'tx_input': {
        if (this.tx === null) return fail(-32600, 'fake jade: tx_input before sign_liquid_tx')
        const hash = this.tx.hashForWitnessV0(
          this.inputIndex++,
          Buffer.from(p['script'] as Uint8Array),
          Buffer.from(p['value_commitment'] as Uint8Array),
          Transaction.SIGHASH_ALL,
        )
        this.pending.push({ hash, path: p['path'] as number[] })
        return ok(new Uint8Array(33))
      }
      case 'get_signature': {
        const next = this.pending.shift()
        if (!next) return fail(-32600, 'fake jade: get_signature without tx_input')
        const key = next.path.reduce((node, index) => this.child(node, index), this.master).key
        const compact = Buffer.from(this.ecc.sign(next.hash, key))
        return ok(new Uint8Array(script.signature.encode(compact, Transaction.SIGHASH_ALL)))
      }
      default:
        return fail(-32601, `fake jade: method ${method} not implemented`)
    }
  }

  /** A handshake step for the host to post (LWK's `AuthResult`): the clear URL first, then the onion. */
  private httpRequest(path: string, data: { [k: string]: Cbor }, onReply: string): Cbor {
    const server = this.o.pinServer ?? 'https://j8d.io'
    return {
      http_request: {
        params: {
          urls: [
            `${server}/${path}`,
            `http://mrrxtq6tjpbnbm7vh5jt6mpjctn7ggyfy5wegvbeff3x7jrznqawlmid.onion/${path}`,
          ],
          method: 'POST',
          accept: 'json',
          data,
        },
        'on-reply': onReply,
      },
    }
  }

  /** BIP32 private child derivation. */
  private child(parent: Node, index: number): Node {
    const ser = Buffer.alloc(4)
    ser.writeUInt32BE(index >>> 0)
    const data =
      index >= HARDENED
        ? Buffer.concat([Buffer.from([0]), parent.key, ser])
        : Buffer.concat([Buffer.from(this.ecc.pointFromScalar(parent.key, true) as Uint8Array), ser])
    const i = createHmac('sha512', parent.chain).update(data).digest()
    const key = this.ecc.privateAdd(parent.key, i.subarray(0, 32))
    if (key === null) throw new Error('fake jade: invalid child key')
    return { key, chain: i.subarray(32) }
  }
}
