/**
 * Issue #26: a pt-BR screen shows no English outside "Detalhes técnicos". The sentence an API refusal carries to the
 * screen (`userMessage`) is ours in both languages; the service's own text and the request id travel beside it
 * (`serviceMessage`, `requestId`) for the disclosure. And a refusal the ledger stored reads the same way.
 */
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/main/api'
import { storedRefusalText } from '../../../src/main/api/messages'
import { apiErrorToIpc } from '../../../src/main/app/errors'

describe('what a screen says about an API refusal', () => {
  it('keeps the service’s English text and the request id out of the sentence, and passes them beside it', () => {
    const e = new ApiError({
      kind: 'maintenance',
      status: 503,
      retryAfterSeconds: 300,
      requestId: 'req-123',
      errorMessage: 'Service under maintenance, please retry later',
    })
    const ipc = apiErrorToIpc(e)
    expect(ipc.userMessage?.['pt-BR']).toMatch(/manutenção/)
    expect(ipc.userMessage?.['pt-BR']).not.toMatch(/Service under maintenance|req-123/)
    expect(ipc.userMessage?.en).not.toMatch(/Service under maintenance|req-123/)
    expect(ipc.serviceMessage).toBe('Service under maintenance, please retry later')
    expect(ipc.requestId).toBe('req-123')
    // The log line / support sentence still has everything.
    expect(e.userMessage('pt-BR')).toMatch(/Service under maintenance/)
  })

  it('joins the denial sentence to the service text, never to ours', () => {
    const ipc = apiErrorToIpc(
      new ApiError({
        kind: 'business',
        status: 520,
        denialCode: 'BLOCKED_USER',
        errorMessage: 'User blocked',
        denialMessage: 'Contact compliance',
      }),
    )
    expect(ipc.serviceMessage).toBe('User blocked — Contact compliance')
    expect(ipc.userMessage?.['pt-BR']).not.toMatch(/User blocked|Contact compliance/)
  })

  it('reads a stored refusal from its codes in both languages; an unknown kind is a plain refusal', () => {
    expect(
      storedRefusalText({
        kind: 'business',
        status: 520,
        messageCode: 'IDENTIFICATION_REQUIRED',
        denialCode: null,
      }),
    ).toEqual({
      'pt-BR': 'O pagador precisa ser identificado (CPF/CNPJ ou EUID).',
      en: 'The payer must be identified (tax number or EUID).',
    })
    expect(
      storedRefusalText({ kind: 'something_new', status: null, messageCode: null, denialCode: null })[
        'pt-BR'
      ],
    ).toBe('O serviço recusou a operação.')
  })
})
