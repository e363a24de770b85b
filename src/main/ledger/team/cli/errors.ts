/**
 * A refusal of the owner's tool, with words for the person at the terminal. The tool prints `message` and exits
 * 1; no stack trace, and never a password (nothing here is built from one).
 */
export class CliError extends Error {
  override readonly name = 'CliError'
}
