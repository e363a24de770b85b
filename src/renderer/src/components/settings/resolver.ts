/**
 * The zod resolver, with empty optional inputs dropped first (see `compact`): the form validates with exactly
 * the schema main applies, so a field refused here is refused there for the same reason, with the same code.
 */
import { zodResolver } from '@hookform/resolvers/zod'
import { get, type FieldErrors, type FieldValues, type Resolver } from 'react-hook-form'
import type { z } from 'zod'
import { compact } from './logic'

export function compactZodResolver<In extends FieldValues, Out>(
  schema: z.ZodType<Out, In>,
): Resolver<In, unknown, Out> {
  const inner = zodResolver(schema) as unknown as Resolver<In, unknown, Out>
  return (values, context, options) => inner(compact(values), context, options)
}

/** Main's field paths → the form's: used to place a refusal from main under the input that caused it. */
export function mapFieldPath(path: string, from: string, to: string): string {
  return path === from || path.startsWith(`${from}.`) ? to + path.slice(from.length) : path
}

/** The message code RHF holds for a field path (nested paths included), if any. */
export function errorCodeAt(errors: FieldErrors, path: string): string | undefined {
  const e = get(errors, path) as { message?: unknown } | undefined
  return typeof e?.message === 'string' ? e.message : undefined
}
