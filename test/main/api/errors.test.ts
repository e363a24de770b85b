import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ipcErrorSchema } from '../../../src/shared/contract'
import {
  contractError,
  errorFromFailure,
  errorFromResponse,
  supportReferenceOf,
} from '../../../src/main/api/classify'
import { readErrorBody } from '../../../src/main/api/envelope'
import { API_ERROR_KINDS, ApiError } from '../../../src/main/api/errors'
import { Redactor } from '../../../src/main/api/redact'
import { TransportFailure, type RawResponse } from '../../../src/main/api/transport'

const redactor = new Redactor()
const read = { endpoint: 'withdraw-status', creates: false, redactor, now: 0 }
const create = { endpoint: 'withdraw', creates: true, redactor, now: 0 }

function res(status: number, body: unknown, retryAfter: string | null = null): RawResponse {
  return {
    status,
    requestId: 'rid',
    nonce: 'nonce',
    retryAfter,
    text: typeof body === 'string' ? body : JSON.stringify(body),
  }
}

describe('error bodies (API contract §2.1)', () => {
  it('reads errorMessage and codes from the envelope', () => {
    expect(
      readErrorBody(
        JSON.stringify({
          response: { errorMessage: 'm', messageCode: 'X', denialCode: 'D', denialMessage: 'dm' },
          async: false,
        }),
      ),
    ).toEqual({ errorMessage: 'm', messageCode: 'X', denialCode: 'D', denialMessage: 'dm' })
  })
  it('reads the flat body of 401/403/429 and the auth error code', () => {
    expect(readErrorBody('{"errorMessage":"flat"}')).toEqual({ errorMessage: 'flat' })
    expect(readErrorBody('{"error":"invalid_grant","errorMessage":"no"}')).toEqual({
      errorMessage: 'no',
      authError: 'invalid_grant',
    })
  })
  it('survives non-JSON bodies and fields of the wrong type', () => {
    expect(readErrorBody('<html>502 Bad Gateway</html>')).toEqual({})
    expect(readErrorBody('{"errorMessage":42,"response":{"messageCode":["x"]}}')).toEqual({})
    expect(readErrorBody('null')).toEqual({})
  })
})

describe('status → kind', () => {
  const table: Array<[number, string | null, string, string]> = [
    [400, null, 'bad_request', 'bad_request'],
    [413, null, 'bad_request', 'bad_request'],
    [415, null, 'bad_request', 'bad_request'],
    [401, null, 'unauthorized', 'unauthorized'],
    [403, null, 'forbidden', 'forbidden'],
    [404, null, 'route_not_found', 'route_not_found'],
    [422, null, 'compliance', 'compliance'],
    [429, '7', 'rate_limited', 'rate_limited'],
    [520, null, 'business', 'business'],
    [503, '300', 'maintenance', 'maintenance'],
    [503, null, 'server', 'outcome_unknown'],
    [500, null, 'server', 'outcome_unknown'],
    [502, null, 'server', 'outcome_unknown'],
    [504, null, 'server', 'outcome_unknown'],
    [409, null, 'bad_request', 'bad_request'],
    [302, null, 'invalid_response', 'outcome_unknown'],
  ]
  it.each(table)('%i (Retry-After %s): read → %s, create → %s', (status, ra, readKind, createKind) => {
    expect(errorFromResponse(res(status, {}, ra), read).kind).toBe(readKind)
    expect(errorFromResponse(res(status, {}, ra), create).kind).toBe(createKind)
  })

  it('a create never gets a kind that invites a resend unless the service refused definitively', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }),
        fc.option(fc.constantFrom('0', '1', '300')),
        (status, ra) => {
          const e = errorFromResponse(res(status, {}, ra), create)
          expect(['server', 'invalid_response', 'network']).not.toContain(e.kind)
          if (status >= 500 && status !== 520 && !(status === 503 && ra !== null))
            expect(e.kind).toBe('outcome_unknown')
        },
      ),
    )
  })

  it('carries Retry-After, codes, ids and the redacted message', () => {
    const r = new Redactor()
    r.pin('super-secret-value')
    const e = errorFromResponse(res(429, { errorMessage: 'slow down super-secret-value' }, '12'), {
      ...read,
      redactor: r,
    })
    expect(e).toMatchObject({
      kind: 'rate_limited',
      status: 429,
      retryAfterSeconds: 12,
      requestId: 'rid',
      nonce: 'nonce',
      errorMessage: 'slow down [redacted]',
    })
    const m = errorFromResponse(res(503, { response: { errorMessage: 'maint' } }, '300'), read)
    expect(m.retryAfterSeconds).toBe(300)
    const b = errorFromResponse(
      res(520, { response: { errorMessage: 'x', messageCode: 'WITHDRAW_NOT_FOUND' } }),
      read,
    )
    expect(b.messageCode).toBe('WITHDRAW_NOT_FOUND')
  })

  it('compliance keeps the raw message and extracts the reference for display', () => {
    const e = errorFromResponse(
      res(422, {
        response: {
          errorMessage: 'Operation refused by compliance screening. Support reference: CMP-ABCDEF12',
          denialCode: 'COMPLIANCE_BLOCKED',
          statusCode: 422,
        },
        async: false,
      }),
      create,
    )
    expect(e).toMatchObject({
      kind: 'compliance',
      denialCode: 'COMPLIANCE_BLOCKED',
      supportReference: 'CMP-ABCDEF12',
    })
    expect(e.errorMessage).toContain('CMP-ABCDEF12')
  })
})

describe('supportReferenceOf', () => {
  it.each([
    ['Support reference: CMP-ABCDEFAB', 'CMP-ABCDEFAB'],
    ['Bloqueado. Referência: 123456', '123456'],
    ['Refused (protocolo nº 2026-0042)', '2026-0042'],
    ['Refused by compliance, ticket #88123', '88123'],
    ['Refused; quote 9981234 to support', '9981234'],
    ['Operation refused by compliance screening.', undefined],
  ])('%s', (text, ref) => {
    expect(supportReferenceOf(text)).toBe(ref)
  })
})

describe('transport failures', () => {
  it('not sent → network for both; sent → outcome_unknown for a create, network for a read', () => {
    const refused = new TransportFailure('connect_failed', false, 'ECONNREFUSED')
    expect(errorFromFailure(refused, create).kind).toBe('network')
    expect(errorFromFailure(refused, create).nothingSent).toBe(true)
    const timeout = new TransportFailure('timeout', true, 'UND_ERR_HEADERS_TIMEOUT')
    expect(errorFromFailure(timeout, create)).toMatchObject({ kind: 'outcome_unknown', outcomeUnknown: true })
    expect(errorFromFailure(timeout, read)).toMatchObject({
      kind: 'network',
      code: 'timeout',
      nothingSent: false,
    })
  })

  it('a 2xx create with an unreadable body is outcome_unknown and salvages the id', () => {
    const e = contractError(res(200, '{"response":{"withdrawalId":"w-9"'), create, 'w-9')
    expect(e).toMatchObject({
      kind: 'outcome_unknown',
      code: 'unreadable_response',
      status: 200,
      createdId: 'w-9',
    })
    expect(contractError(res(200, '{'), read).kind).toBe('invalid_response')
  })
})

describe('ApiError presentation', () => {
  const samples: ApiError[] = [
    ...API_ERROR_KINDS.map((kind) => new ApiError({ kind, status: 500, requestId: 'r-1' })),
    new ApiError({
      kind: 'business',
      status: 520,
      messageCode: 'WITHDRAW_NOT_FOUND',
      errorMessage: 'not found: x',
    }),
    new ApiError({ kind: 'business', status: 520, messageCode: 'SOMETHING_NEW', errorMessage: 'new' }),
    new ApiError({
      kind: 'business',
      status: 520,
      denialCode: 'BLOCKED_USER',
      denialMessage: 'blocked, call us',
    }),
    new ApiError({
      kind: 'compliance',
      status: 422,
      denialCode: 'COMPLIANCE_BLOCKED',
      supportReference: 'CMP-1',
    }),
    new ApiError({ kind: 'unauthorized', status: 401, authError: 'invalid_client' }),
    new ApiError({ kind: 'unauthorized', status: 401, authError: 'weird_new_code' }),
    new ApiError({ kind: 'rate_limited', status: 429, retryAfterSeconds: 42 }),
    new ApiError({ kind: 'maintenance', status: 503, retryAfterSeconds: 300 }),
    new ApiError({ kind: 'unauthorized', code: 'legacy_token_expired' }),
    new ApiError({ kind: 'outcome_unknown', status: 200, code: 'unreadable_response', createdId: 'w-1' }),
  ]

  it('has a user message in both locales for every sample', () => {
    for (const e of samples) {
      for (const locale of ['pt-BR', 'en'] as const) {
        const text = e.userMessage(locale)
        expect(text.length).toBeGreaterThan(10)
        expect(text).not.toMatch(/undefined|null|\{code\}/)
      }
    }
  })

  it('uses the known code sentence, and shows unknown codes raw', () => {
    expect(samples[API_ERROR_KINDS.length]?.userMessage('pt-BR')).toContain('Pagamento não encontrado')
    expect(samples[API_ERROR_KINDS.length]?.userMessage('en')).toContain('Withdrawal not found')
    expect(samples[API_ERROR_KINDS.length + 1]?.userMessage('en')).toContain('SOMETHING_NEW')
    expect(samples[API_ERROR_KINDS.length + 5]?.userMessage('en')).toContain('weird_new_code')
  })

  it('outcome_unknown always says not to resend; compliance names the reference; waits are shown', () => {
    const unknown = new ApiError({ kind: 'outcome_unknown', messageCode: 'WITHDRAW_NOT_FOUND' })
    expect(unknown.userMessage('pt-BR')).toContain('NÃO reenvie')
    expect(unknown.userMessage('en')).toContain('Do NOT resend')
    expect(new ApiError({ kind: 'compliance', supportReference: 'CMP-9' }).userMessage('en')).toContain(
      'CMP-9',
    )
    expect(new ApiError({ kind: 'maintenance', retryAfterSeconds: 300 }).userMessage('pt-BR')).toContain(
      '5 min',
    )
    expect(new ApiError({ kind: 'rate_limited', retryAfterSeconds: 12 }).userMessage('en')).toContain('12 s')
  })

  it('toJSON and toIpcError are plain data the renderer contract accepts', () => {
    for (const e of samples) {
      const json = JSON.parse(JSON.stringify(e)) as Record<string, unknown>
      expect(json.kind).toBe(e.kind)
      expect(json).not.toHaveProperty('stack')
      expect(json).not.toHaveProperty('cause')
      const ipc = e.toIpcError('en')
      expect(ipcErrorSchema.safeParse(ipc).success).toBe(true)
      expect(ipc.code).toBe(`api.${e.kind}`)
      expect(ipc.message).toBe(e.userMessage('en'))
    }
  })

  it('Error.message is built from codes only, never the service text', () => {
    const e = new ApiError({
      kind: 'business',
      status: 520,
      errorMessage: 'Maria da Silva CPF 123',
      requestId: 'r',
    })
    expect(e.message).not.toContain('Maria')
    expect(e.message).toContain('520')
    expect(e).toBeInstanceOf(Error)
    expect(e.name).toBe('ApiError')
  })
})

describe('Redactor', () => {
  it('removes registered secrets and JWT-shaped strings from any text', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.stringMatching(/^[A-Za-z0-9_.~+/=-]{8,60}$/).filter((s) => !'Bearer [redacted]'.includes(s)),
        fc.string(),
        (a, secret, b) => {
          const r = new Redactor()
          r.pin(secret)
          expect(r.text(`${a}${secret}${b}`)).not.toContain(secret)
        },
      ),
    )
    const r = new Redactor()
    expect(r.text('token eyJhbGciOi.eyJzdWIiOiJ4In0.abc leaked')).toBe('token [redacted] leaked')
    expect(r.text('Authorization: Bearer abc.def')).toBe('Authorization: Bearer [redacted]')
  })
})
