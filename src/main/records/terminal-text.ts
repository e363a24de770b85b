/**
 * Text from an export (a manifest's profile name, a file name in the folder, a problem quoting a value) is
 * attacker-controlled. Printed raw, escape sequences in it can move the cursor, rewrite lines and hide the real
 * verdict; bidirectional controls can reorder what the eye reads. Every string the verifier prints goes through
 * `escapeForTerminal`, and the manifest schema refuses these characters in the strings it shows (manifest.ts).
 *
 * Unsafe: C0 controls (line breaks and tabs too: a value must not start a line of its own), DEL, C1 controls
 * (U+009B is a CSI on its own in some terminals), the line and paragraph separators, and the bidirectional
 * formatting characters (ALM, LRM, RLM, LRE…RLO, LRI…PDI). Each is written as `\uXXXX`, which is also a valid JSON
 * escape of the same character, so escaping JSON text keeps it JSON with the same meaning.
 */

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g')

const hex4 = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`

/** `text` with every unsafe character written as `\uXXXX` (lower-case hex). */
export function escapeForTerminal(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, hex4) : text
}

/** The first unsafe character of `text`, described for a problem message, or null when there is none. */
export function findUnsafeChar(text: string): { index: number; description: string } | null {
  const m = UNSAFE.exec(text)
  if (!m) return null
  const code = (m[0] ?? '').charCodeAt(0)
  const u = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
  const kind =
    code <= 0x1f || (code >= 0x7f && code <= 0x9f)
      ? 'control character'
      : code === 0x2028 || code === 0x2029
        ? 'line separator'
        : 'bidirectional formatting character'
  return { index: m.index, description: `the ${kind} ${u}` }
}
