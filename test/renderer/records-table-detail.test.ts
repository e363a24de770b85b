/** Pure helpers of the detail parts the records table opens: raw fields, explorer links, resolution form. */
import { describe, expect, it } from 'vitest'
import {
  cents,
  display,
  explorerTxUrl,
  firstCents,
  recordErrorAsIpcError,
  REFUND_AMOUNT_KEYS,
  REFUND_FEE_KEYS,
  text,
} from '../../src/renderer/src/components/detail/raw'
import {
  resolveFormSchema,
  toResolution,
} from '../../src/renderer/src/components/detail/ResolveUnknownDialog'
import { sortObservations } from '../../src/renderer/src/components/detail/StatusTimeline'
import { unknownResolutionSchema } from '../../src/shared/contract'
import type { StatusObservation } from '../../src/shared/withdrawal-record'

describe('raw fields', () => {
  it('read strings, numbers and booleans; never throw on odd shapes', () => {
    const body = { a: 'x', b: 12, c: true, d: { e: 1 }, f: '', g: null }
    expect(text(body, 'a')).toBe('x')
    expect(text(body, 'b')).toBe('12')
    expect(text(body, 'c')).toBe('true')
    expect(text(body, 'd')).toBeNull()
    expect(text(body, 'f')).toBeNull()
    expect(text(body, 'g')).toBeNull()
    expect(text(body, 'missing')).toBeNull()
    expect(text(null, 'a')).toBeNull()
    expect(text(body, 'toString')).toBeNull()
    expect(text(body, '__proto__')).toBeNull()
  })

  it('take only safe integers as cents', () => {
    expect(cents({ v: 100 }, 'v')).toBe(100)
    expect(cents({ v: 1.5 }, 'v')).toBeNull()
    expect(cents({ v: '100' }, 'v')).toBeNull()
    expect(cents({ v: 2 ** 60 }, 'v')).toBeNull()
  })

  it('find the refund fee and amount under any of their likely names', () => {
    const refund = { txId: 'a', reason: 'invalid_pix_key', feeInCents: 100, amountInCents: 4_950 }
    expect(firstCents(refund, REFUND_FEE_KEYS)).toEqual({ key: 'feeInCents', cents: 100 })
    expect(firstCents(refund, REFUND_AMOUNT_KEYS)).toEqual({ key: 'amountInCents', cents: 4_950 })
    expect(firstCents({ txId: 'a' }, REFUND_FEE_KEYS)).toBeNull()
  })

  it('display anything as one line', () => {
    expect(display('s')).toBe('s')
    expect(display(3)).toBe('3')
    expect(display(null)).toBe('null')
    expect(display({ a: [1] })).toBe('{"a":[1]}')
    const cyclic: Record<string, unknown> = {}
    cyclic['self'] = cyclic
    expect(() => display(cyclic)).not.toThrow()
  })
})

describe('explorerTxUrl', () => {
  const tx = 'AB'.repeat(32)
  it('links Liquid transactions to the public explorer of the network', () => {
    expect(explorerTxUrl(tx)).toBe(`https://blockstream.info/liquid/tx/${'ab'.repeat(32)}`)
    expect(explorerTxUrl(tx, 'testnet')).toBe(`https://blockstream.info/liquidtestnet/tx/${'ab'.repeat(32)}`)
  })
  it('gives no link for regtest or for anything that is not a 64-hex txid', () => {
    expect(explorerTxUrl(tx, 'regtest')).toBeNull()
    expect(explorerTxUrl('../../evil')).toBeNull()
    expect(explorerTxUrl(`${tx}?x=1`)).toBeNull()
  })
})

describe('recordErrorAsIpcError', () => {
  it('keeps every code and the request id for ErrorNotice', () => {
    expect(
      recordErrorAsIpcError({
        kind: 'business',
        status: 520,
        messageCode: 'PIX_KEY_INVALID',
        denialCode: null,
        requestId: 'req-1',
        message: 'texto livre',
      }),
    ).toEqual({
      code: 'business',
      kind: 'business',
      message: 'texto livre',
      status: 520,
      requestId: 'req-1',
      messageCode: 'PIX_KEY_INVALID',
      serviceMessage: 'texto livre',
    })
  })
})

describe('resolution form', () => {
  it('requires an id only when linking, and sends exactly the contract shapes', () => {
    expect(resolveFormSchema.safeParse({ choice: 'link', withdrawalId: '  ' }).success).toBe(false)
    expect(resolveFormSchema.safeParse({ choice: 'notCreated', withdrawalId: '' }).success).toBe(true)
    const link = toResolution({ choice: 'link', withdrawalId: '  w-123 ' })
    expect(link).toEqual({ withdrawalId: 'w-123' })
    expect(unknownResolutionSchema.safeParse(link).success).toBe(true)
    const none = toResolution({ choice: 'notCreated', withdrawalId: 'ignored' })
    expect(none).toEqual({ notCreated: true })
    expect(unknownResolutionSchema.safeParse(none).success).toBe(true)
  })
})

describe('sortObservations', () => {
  it('orders by time, then by id, without touching the input', () => {
    const o = (id: number, at: string): StatusObservation => ({
      id,
      localId: 'l',
      observedAt: at,
      remoteStatus: 'sent',
      body: null,
      requestId: null,
      nonce: null,
      applied: true,
    })
    const input = [
      o(3, '2025-01-01T10:00:00.000Z'),
      o(1, '2025-01-01T09:00:00.000Z'),
      o(2, '2025-01-01T10:00:00.000Z'),
    ]
    expect(sortObservations(input).map((x) => x.id)).toEqual([1, 2, 3])
    expect(input.map((x) => x.id)).toEqual([3, 1, 2])
  })
})
