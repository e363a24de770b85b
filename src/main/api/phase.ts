/**
 * The phase of a request, seen from inside undici's dispatch: whether it has begun to be written on a socket.
 *
 * undici calls a handler's `onConnect` from `writeH1` on an open socket, immediately before it writes the request
 * line, headers and (corked with them) the body; DNS, TCP connect and TLS all happen before it. So "onConnect was
 * never called" proves that no byte of this request left the process, whatever error code the failure carries.
 * After it, the service may have read the request.
 *
 * The handler is wrapped at `dispatch`, with undici's own `request()` on top, so the response handling (body
 * stream, timeouts, size limit) stays undici's. The wrapper speaks the handler interface `request()` itself uses
 * (onConnect/onHeaders/onData/onComplete/onError), so undici passes it through unchanged.
 */
import type { Dispatcher } from 'undici'

export interface RequestPhase {
  /** undici began writing the request on a socket: from here on it may have reached the service. */
  written: boolean
}

type LegacyHandler = {
  onConnect?(abort: (err?: Error) => void, context?: unknown): void
  onHeaders?(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean
  onData?(chunk: Buffer): boolean
  onComplete?(trailers: string[] | null): void
  onError?(err: Error): void
  onUpgrade?(statusCode: number, headers: Buffer[] | string[] | null, socket: unknown): void
  onResponseStarted?(): void
  onBodySent?(chunk: unknown): void
  onRequestSent?(): void
}

class PhaseHandler implements LegacyHandler {
  constructor(
    readonly inner: LegacyHandler,
    readonly phase: RequestPhase,
  ) {}

  onConnect(abort: (err?: Error) => void, context?: unknown): void {
    this.phase.written = true
    this.inner.onConnect?.(abort, context)
  }

  onHeaders(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean {
    return this.inner.onHeaders?.(statusCode, headers, resume, statusText) ?? true
  }

  onData(chunk: Buffer): boolean {
    return this.inner.onData?.(chunk) ?? true
  }

  onComplete(trailers: string[] | null): void {
    this.inner.onComplete?.(trailers)
  }

  onError(err: Error): void {
    if (!this.inner.onError) throw err
    this.inner.onError(err)
  }

  onUpgrade(statusCode: number, headers: Buffer[] | string[] | null, socket: unknown): void {
    this.inner.onUpgrade?.(statusCode, headers, socket)
  }

  onResponseStarted(): void {
    this.inner.onResponseStarted?.()
  }

  onBodySent(chunk: unknown): void {
    this.inner.onBodySent?.(chunk)
  }

  onRequestSent(): void {
    this.inner.onRequestSent?.()
  }
}

/** `dispatcher.request(opts)`, with `phase.written` set the moment undici starts writing this request. */
export function phasedRequest(
  dispatcher: Dispatcher,
  phase: RequestPhase,
  opts: Dispatcher.RequestOptions,
): Promise<Dispatcher.ResponseData> {
  const view = {
    dispatch: (o: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean =>
      dispatcher.dispatch(o, new PhaseHandler(handler as LegacyHandler, phase) as Dispatcher.DispatchHandler),
  }
  // undici's `request` only calls `this.dispatch(opts, handler)`.
  return (
    dispatcher.request as (this: unknown, o: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>
  ).call(view, opts)
}
