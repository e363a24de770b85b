/**
 * The channels of records exports (src/shared/channels-records.ts): a signed export of the active profile's
 * records — this computer's ledger, or on a team profile the team's, every desk's records as the live list shows
 * them — into a folder main chose, and this installation's signing key.
 */
import type { recordsChannels } from '../../shared/channels-records'
import type { HandlersOf } from '../ipc/router'
import { pgExportLedger, sqliteExportLedger } from '../ledger/engines'
import { exportFrom } from '../records/export'
import { walletStatementFile } from '../records/wallet-statement'
import type { RecordsDeps } from './deps'
import { engineOf } from './engine'
import { AppError } from './errors'
import { loadSigningKey, publicKeyView } from './signing-key'

export function recordsHandlers(deps: RecordsDeps): HandlersOf<typeof recordsChannels> {
  const { vault } = deps
  return {
    'records:export': async (input) => {
      const rt = deps.runtime()
      const p = rt.profile
      const engine = engineOf(rt)
      // Refused before the token is spent: a team export needs the team ledger connected.
      const source =
        engine.kind === 'postgres' ? pgExportLedger(engine.connected()) : sqliteExportLedger(deps.ledger)
      // Checked before the token is spent, so a refused filter does not cost the folder choice.
      if (engine.kind === 'sqlite' && input.filter?.profile !== undefined && input.filter.profile !== p.id) {
        throw new AppError(
          'export_other_profile',
          'An export covers the active profile only: switch profile to export another one.',
        )
      }
      const dir = deps.folders.take(input.folder, 'export', p.id)
      const settings = deps.profiles.settings()
      // Issue #27: the treasury wallet's statement for the export's period (all time up to now without one).
      const periodFrom = input.filter?.from ? Date.parse(input.filter.from) : 0
      const periodTo = input.filter?.to ? Date.parse(input.filter.to) : null
      const statement = input.recordKind === 'deposit' ? null : deps.wallet.statement(p, periodFrom, periodTo)
      return exportFrom(source, {
        dir,
        formats: input.formats,
        filter: engine.kind === 'postgres' ? { ...input.filter } : { ...input.filter, profile: p.id },
        csvDelimiter: input.csvDelimiter ?? settings.csvDelimiter,
        locale: input.locale ?? settings.csvLocale,
        includeReceipts: input.includeReceipts === true,
        walletStatement: statement ? walletStatementFile(statement) : null,
        ...(input.recordKind ? { kind: input.recordKind } : {}),
        signer: loadSigningKey(vault),
        appVersion: deps.appVersion,
        profile: { name: p.name, network: p.network },
        onProgress: (done, total) => deps.emit('export:progress', { done, total }),
        operator: deps.operator,
        // Redacted should a stored credential ever surface inside a record's raw API data.
        secrets: [
          ...vault
            .keys()
            .filter((k) => k.startsWith('profile:') || k.startsWith('team-ledger:'))
            .map((k) => vault.get(k)),
          ...deps.extraSecrets(),
        ].filter((v): v is string => typeof v === 'string'),
      })
    },
    'records:publicKey': () => publicKeyView(loadSigningKey(vault)),
  }
}
