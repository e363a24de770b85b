/**
 * Passwords for the owner's tool, never from the command line (shell history, the process list): a file
 * (`--password-file`, one line), libpq's `PGPASSWORD`, the libpq password file (`PGPASSFILE`, else ~/.pgpass,
 * read by the `pgpass` package node-postgres itself uses) or, in a terminal, a prompt that does not echo.
 *
 * A new role's password is sent to the server already hashed (`scramVerifier`), as psql's `\password` does: the
 * clear text never crosses the connection and cannot land in the server's log.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import pgpass from 'pgpass'
import { CliError } from './errors'

export interface Terminal {
  input: NodeJS.ReadStream
  output: NodeJS.WriteStream
}

const defaultTerminal = (): Terminal => ({ input: process.stdin, output: process.stderr })

/** The first line of a file, without its line break. */
export function readPasswordFile(file: string): string {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw new CliError(`cannot read the password file ${file}`)
  }
  const pw = text.split(/\r?\n/)[0] ?? ''
  if (pw === '') throw new CliError(`the password file ${file} is empty`)
  return pw
}

/** Reads one line from a terminal without echoing it. */
export function promptHidden(question: string, t: Terminal = defaultTerminal()): Promise<string> {
  const { input, output } = t
  if (!input.isTTY || typeof input.setRawMode !== 'function') {
    return Promise.reject(
      new CliError('no password: give --password-file, a PGPASSFILE/.pgpass entry, or run in a terminal'),
    )
  }
  output.write(question)
  return new Promise((resolve, reject) => {
    let typed = ''
    const done = (err: Error | null): void => {
      input.setRawMode(false)
      input.pause()
      input.off('data', onData)
      output.write('\n')
      if (err) reject(err)
      else resolve(typed)
    }
    const onData = (chunk: Buffer): void => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(null)
        if (ch === '\u0003') return done(new CliError('cancelled'))
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1)
        else typed += ch
      }
    }
    input.setRawMode(true)
    input.resume()
    input.on('data', onData)
  })
}

export interface PasswordSource {
  passwordFile?: string
  env: NodeJS.ProcessEnv
}

function fromPgpass(c: {
  host: string
  port: number
  database: string
  user: string
}): Promise<string | undefined> {
  return new Promise((resolve) => pgpass({ ...c, port: String(c.port) }, (pw?: string) => resolve(pw)))
}

/**
 * The password to log in with, asked for only when the server wants one (node-postgres calls this during the
 * handshake): a server that trusts a local socket never prompts.
 */
export function loginPassword(
  src: PasswordSource,
  c: { host: string; port: number; database: string; user: string },
  t?: Terminal,
): () => Promise<string> {
  return async () => {
    if (src.passwordFile) return readPasswordFile(src.passwordFile)
    if (src.env.PGPASSWORD) return src.env.PGPASSWORD
    const stored = await fromPgpass(c)
    if (stored !== undefined) return stored
    return promptHidden(`Password for ${c.user}@${c.host}: `, t)
  }
}

/** A password to give a role: from a file, or typed twice in a terminal. */
export async function newPassword(role: string, file: string | undefined, t?: Terminal): Promise<string> {
  if (file) return readPasswordFile(file)
  const first = await promptHidden(`New password for ${role}: `, t).catch(() => {
    throw new CliError(
      `no password for ${role}: give it in a file (--new-password-file) or run in a terminal`,
    )
  })
  if (first.length < 12) throw new CliError('use at least 12 characters for a role password')
  const again = await promptHidden(`Again: `, t)
  if (again !== first) throw new CliError('the two passwords differ')
  return first
}

const hmac = (key: Buffer, text: string): Buffer => createHmac('sha256', key).update(text).digest()

/**
 * The SCRAM-SHA-256 verifier PostgreSQL stores for a password (RFC 5802/7677, as `PQencryptPasswordConn`
 * builds it). The password's UTF-8 bytes are used as they are, the way node-postgres (the desks) logs in.
 */
export function scramVerifier(password: string, iterations = 4096): string {
  const salt = randomBytes(16)
  const salted = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, iterations, 32, 'sha256')
  const stored = createHash('sha256').update(hmac(salted, 'Client Key')).digest()
  const server = hmac(salted, 'Server Key')
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${stored.toString('base64')}:${server.toString('base64')}`
}
