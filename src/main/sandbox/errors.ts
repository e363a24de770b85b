/**
 * The three error families of the sandbox, each with the body shape the API contract prescribes (§2.1, §5.5):
 * operation refusals in the `{ response, async: false }` envelope, auth errors flat `{ error, errorMessage
 * }`, and control-surface errors (not part of the API) flat `{ error, errorMessage }` too.
 */

export interface OpErrorFields {
  messageCode?: string
  denialCode?: string
  denialMessage?: string
  statusCode?: number
  [extra: string]: unknown
}

/** A refusal by an operation endpoint. */
export class OpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: OpErrorFields = {},
  ) {
    super(message)
  }

  body(): unknown {
    return { response: { errorMessage: this.message, ...this.fields }, async: false }
  }
}

// Parameter-shape refusals answer 400 ("malformed or invalid request", docs/API-CONTRACT.md#s7-2); business ones 520.
export const missingParameter = (name: string, detail?: string): OpError =>
  new OpError(400, detail ?? `Missing required parameter: ${name}`, { messageCode: 'MISSING_PARAMETER' })

export const invalidParameter = (name: string, why: string): OpError =>
  new OpError(400, `Invalid parameter ${name}: ${why}`, { messageCode: 'INVALID_PARAMETER' })

export const conflictingParameters = (why: string): OpError =>
  new OpError(400, `Conflicting parameters: ${why}`, { messageCode: 'CONFLICTING_PARAMETERS' })

export const businessRefusal = (message: string, messageCode?: string): OpError =>
  new OpError(520, message, messageCode === undefined ? {} : { messageCode })

export const blockedUser = (): OpError =>
  new OpError(520, 'The end user is blocked.', {
    messageCode: 'BLOCKED_USER',
    denialCode: 'BLOCKED_USER',
    denialMessage: 'Operations for this end user are blocked; contact support.',
  })

export const complianceBlocked = (reference: string): OpError =>
  new OpError(422, `Operation refused by compliance screening. Support reference: ${reference}`, {
    denialCode: 'COMPLIANCE_BLOCKED',
    statusCode: 422,
  })

/** An error of `/api/v2/auth/*`. */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }

  body(): unknown {
    return { error: this.code, errorMessage: this.message }
  }
}

/** A misuse of the control surface (unknown id, wrong state, bad input). */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'SandboxControlError'
  }
}

export const notFound = (what: string, id: string): ControlError =>
  new ControlError(404, 'not_found', `No ${what} with id ${id}`)

export const wrongState = (message: string): ControlError => new ControlError(409, 'wrong_state', message)

export const badInput = (message: string): ControlError => new ControlError(400, 'bad_input', message)
