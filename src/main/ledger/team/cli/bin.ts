/** The entry of the built `team-ledger` script (scripts/build-team-ledger.mjs): runs one command and exits. */
import { quietSqliteExperimentalWarning } from '../../sqlite/quiet-warnings'
import { failureText, main } from '../cli'

quietSqliteExperimentalWarning()
main(process.argv.slice(2), {
  env: process.env,
  terminal: { input: process.stdin, output: process.stderr },
}).then(
  (out) => {
    console.log(out)
  },
  (e: unknown) => {
    console.error(`team-ledger: ${failureText(e)}`)
    process.exitCode = 1
  },
)
