/**
 * The sandbox's Liquid regtest chain: real Elements transactions (parsed and re-serialized by liquidjs-lib) in
 * blocks whose headers LWK decodes, on the sandbox clock. It is a ledger of transactions, not a validating node:
 * it refuses unparsable transactions, unknown or already-spent inputs (double spends) and duplicates, and it does
 * NOT check scripts, signatures or that confidential amounts balance (docs/SANDBOX.md, "Liquid chain").
 *
 * Blocks carry no coinbase: nobody mines for a reward here. Funds enter through the genesis transaction, whose
 * explicit outputs are the faucet's reserve (src/main/sandbox/chain/faucet.ts).
 */
import { Transaction } from 'liquidjs-lib'
import { blockHash, encodeHeader, merkleRoot } from './header'

export interface ChainBlock {
  readonly hash: string
  readonly height: number
  readonly time: number
  readonly header: string
  readonly txids: readonly string[]
}

export interface ChainTx {
  readonly txid: string
  readonly hex: string
  /** null while in the mempool */
  height: number | null
}

export type ChainRefusal = 'malformed' | 'duplicate' | 'missing_input' | 'double_spend'

export class ChainError extends Error {
  constructor(readonly code: ChainRefusal) {
    super(`transaction refused: ${code}`)
    this.name = 'ChainError'
  }
}

const outpoint = (txid: string, vout: number): string => `${txid}:${vout}`
/** Coinbase-style prevout (all zeros, 0xffffffff): only the genesis transaction may have it. */
const NULL_PREVOUT = '0'.repeat(64)

export class SandboxChain {
  private readonly blockList: ChainBlock[] = []
  private readonly byHash = new Map<string, ChainBlock>()
  private readonly txs = new Map<string, ChainTx>()
  private mempool: string[] = []
  /** outpoint → the script of that output, hex */
  private readonly outputs = new Map<string, string>()
  /** outpoint → txid spending it (mempool or chain) */
  private readonly spent = new Map<string, string>()
  /** script hex → txids touching it (paying to it or spending from it), in acceptance order */
  private readonly byScript = new Map<string, string[]>()
  private genesisDone = false
  private readonly blockListeners = new Set<(block: ChainBlock) => void>()

  constructor(private readonly nowMs: () => number) {
    this.appendBlock([])
  }

  get height(): number {
    return this.blockList.length - 1
  }

  get tip(): ChainBlock {
    return this.blockList[this.blockList.length - 1] as ChainBlock
  }

  block(hashOrHeight: string | number): ChainBlock | undefined {
    return typeof hashOrHeight === 'number' ? this.blockList[hashOrHeight] : this.byHash.get(hashOrHeight)
  }

  tx(txid: string): ChainTx | undefined {
    return this.txs.get(txid)
  }

  /** Whether an output exists (confirmed or in the mempool) and nothing spends it yet. */
  isUnspent(txid: string, vout: number): boolean {
    const key = outpoint(txid, vout)
    return this.outputs.has(key) && !this.spent.has(key)
  }

  get mempoolSize(): number {
    return this.mempool.length
  }

  get txCount(): number {
    return this.txs.size
  }

  /** What `GET /address/:address/txs` lists for a script: newest first, mempool before confirmed, as Esplora. */
  history(scriptHex: string): { txid: string; height: number | null; blockHash: string | null }[] {
    const txids = this.byScript.get(scriptHex) ?? []
    const rows = txids.map((txid) => {
      const t = this.txs.get(txid) as ChainTx
      return {
        txid,
        height: t.height,
        blockHash: t.height === null ? null : (this.blockList[t.height]?.hash ?? null),
      }
    })
    return rows.reverse().sort((a, b) => (b.height ?? Infinity) - (a.height ?? Infinity))
  }

  /** The first transaction: explicit outputs out of nothing. Once only. */
  addGenesis(hex: string): string {
    if (this.genesisDone) throw new Error('genesis already added')
    this.genesisDone = true
    return this.accept(hex, true)
  }

  /** Broadcast: validates as the class comment says, then keeps it in the mempool until the next block. */
  submit(hex: string): string {
    return this.accept(hex, false)
  }

  private accept(hex: string, genesis: boolean): string {
    let tx: Transaction
    try {
      tx = Transaction.fromHex(hex)
    } catch {
      throw new ChainError('malformed')
    }
    // A re-encoding that differs means trailing bytes or a non-canonical form: refuse, as a node would.
    if (tx.toHex() !== hex.toLowerCase()) throw new ChainError('malformed')
    const txid = tx.getId()
    if (this.txs.has(txid)) throw new ChainError('duplicate')
    const prevouts = tx.ins.map((i) => ({
      txid: Buffer.from(i.hash).reverse().toString('hex'),
      vout: i.index,
    }))
    for (const p of prevouts) {
      if (p.txid === NULL_PREVOUT) {
        if (!genesis) throw new ChainError('missing_input')
        continue
      }
      const key = outpoint(p.txid, p.vout)
      if (!this.outputs.has(key)) throw new ChainError('missing_input')
      if (this.spent.has(key)) throw new ChainError('double_spend')
    }
    const touched = new Set<string>()
    for (const p of prevouts) {
      if (p.txid === NULL_PREVOUT) continue
      const key = outpoint(p.txid, p.vout)
      this.spent.set(key, txid)
      touched.add(this.outputs.get(key) as string)
    }
    tx.outs.forEach((o, vout) => {
      const script = o.script.toString('hex')
      this.outputs.set(outpoint(txid, vout), script)
      if (script !== '') touched.add(script)
    })
    for (const s of touched) {
      const list = this.byScript.get(s)
      if (list) list.push(txid)
      else this.byScript.set(s, [txid])
    }
    this.txs.set(txid, { txid, hex: tx.toHex(), height: null })
    this.mempool.push(txid)
    return txid
  }

  /** Mines the whole mempool into one block (then `count - 1` empty ones), timed by the sandbox clock. */
  mine(count = 1): ChainBlock[] {
    const mined: ChainBlock[] = []
    for (let i = 0; i < count; i++) {
      const txids = this.mempool
      this.mempool = []
      const block = this.appendBlock(txids)
      mined.push(block)
      for (const l of this.blockListeners) l(block)
    }
    return mined
  }

  /** Told of every block mined (not of the blocks a reorg puts back). */
  onBlock(listener: (block: ChainBlock) => void): () => void {
    this.blockListeners.add(listener)
    return () => this.blockListeners.delete(listener)
  }

  /**
   * Replaces the last `depth` blocks with as many new ones (other times, so other hashes). Their transactions go
   * back to the mempool, except `drop`, which vanish with everything spending them — the "a block was replaced"
   * fault. The new blocks are empty: the returned transactions confirm again at the next `mine`.
   */
  reorg(depth: number, drop: ReadonlySet<string> = new Set()): void {
    if (!Number.isSafeInteger(depth) || depth < 1 || depth > this.height)
      throw new RangeError('bad reorg depth')
    const removed = this.blockList.splice(this.blockList.length - depth, depth)
    const back: string[] = []
    for (const b of removed) {
      this.byHash.delete(b.hash)
      back.push(...b.txids)
    }
    this.mempool = [...back, ...this.mempool]
    for (const txid of this.mempool) (this.txs.get(txid) as ChainTx).height = null
    for (const txid of drop) this.forget(txid)
    removed.forEach((old) => this.appendBlock([], old.hash))
  }

  /** Removes a mempool transaction and, recursively, its mempool descendants. */
  private forget(txid: string): void {
    const t = this.txs.get(txid)
    if (!t || t.height !== null) return
    const tx = Transaction.fromHex(t.hex)
    this.txs.delete(txid)
    this.mempool = this.mempool.filter((id) => id !== txid)
    for (const i of tx.ins) {
      const key = outpoint(Buffer.from(i.hash).reverse().toString('hex'), i.index)
      if (this.spent.get(key) === txid) this.spent.delete(key)
    }
    tx.outs.forEach((_o, vout) => {
      const key = outpoint(txid, vout)
      const child = this.spent.get(key)
      this.outputs.delete(key)
      if (child !== undefined) this.forget(child)
    })
    for (const [script, list] of this.byScript) {
      const kept = list.filter((id) => id !== txid)
      if (kept.length !== list.length) this.byScript.set(script, kept)
    }
  }

  /** `replacing`: the hash of the block this one replaces in a reorg, which it must not reproduce. */
  private appendBlock(txids: readonly string[], replacing?: string): ChainBlock {
    const height = this.blockList.length
    const prev = this.blockList[height - 1]
    // Block times never go backwards, even if the sandbox clock is behind the last block.
    let time = Math.max(Math.floor(this.nowMs() / 1000), (prev?.time ?? 0) + 1)
    const fields = () => ({
      prevHash: prev?.hash ?? '0'.repeat(64),
      merkleRoot: merkleRoot(txids),
      time,
      height,
    })
    while (blockHash(fields()) === replacing) time += 1
    const f = fields()
    const block: ChainBlock = { hash: blockHash(f), height, time, header: encodeHeader(f), txids }
    this.blockList.push(block)
    this.byHash.set(block.hash, block)
    for (const txid of txids) (this.txs.get(txid) as ChainTx).height = height
    return block
  }
}
