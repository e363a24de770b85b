/**
 * The channels of issue #14 part A (shared/channels-payees.ts): the payee book, its CSV in and out, and the
 * active profile's default refund address. Spread into `buildRouter` with one line. The book is the active
 * profile's (team-books.ts): the team's on a team profile, this computer's otherwise.
 */
import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import type { payeesChannels } from '../../shared/channels-payees'
import type { HandlersOf } from '../ipc/router'
import { importPayeesCsv, PayeeImportError, payeesCsv } from '../payees'
import type { PayeesDeps } from './deps'
import { engineOf, payeeStoreOf } from './engine'
import { AppError } from './errors'

/** `favorecidos-20261125T061500Z.csv`: sortable, and never the name of a file already there ('wx'). */
function exportName(now: Date): string {
  return `favorecidos-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.csv`
}

export function payeesHandlers(deps: PayeesDeps): HandlersOf<typeof payeesChannels> {
  const { profiles, operator } = deps
  const book = () => payeeStoreOf(engineOf(deps.runtime()), deps.payees)
  const guard = (expectedUpdatedAt: string | undefined) =>
    expectedUpdatedAt === undefined ? {} : { expectedUpdatedAt }
  return {
    'payees:list': ({ text, limit, offset }) =>
      book().search(text ?? '', { ...(limit ? { limit } : {}), ...(offset ? { offset } : {}) }),
    'payees:get': async ({ id }) => {
      const p = await book().byId(id)
      if (!p) throw new AppError('payee_not_found', 'No such payee.')
      return p
    },
    'payees:create': (input) => book().create(input, operator),
    'payees:update': ({ id, payee, expectedUpdatedAt }) =>
      book().update(id, payee, operator, guard(expectedUpdatedAt)),
    'payees:remove': async ({ id, expectedUpdatedAt }) => {
      await book().remove(id, operator, guard(expectedUpdatedAt))
      return null
    },

    'payees:export': async ({ folder, locale, delimiter }) => {
      const settings = profiles.settings()
      const dir = deps.folders.take(folder, 'export', deps.runtime().profile.id)
      const all = await book().all()
      const lang = locale ?? settings.csvLocale
      const text = payeesCsv(all, lang, delimiter ?? (lang === 'en' ? ',' : settings.csvDelimiter))
      const fileName = exportName(new Date())
      // Created exclusively and fsynced: an export never overwrites a file and is complete once we answer.
      const fh = await open(
        join(dir, fileName),
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
        0o644,
      )
      try {
        await fh.writeFile(text, 'utf8')
        await fh.sync()
      } finally {
        await fh.close()
      }
      return { fileName, folder: dir, count: all.length }
    },

    'payees:import': async () => {
      const choose = deps.chooseFile
      if (!choose) throw new AppError('not_supported', 'This build has no file dialog.')
      // The book is taken before the dialog: a profile switched meanwhile does not receive another's file.
      const target = book()
      const path = await choose('payees_import')
      if (path === null) return null
      try {
        return await importPayeesCsv(target, path, operator)
      } catch (e) {
        if (!(e instanceof PayeeImportError)) throw e
        // The whole file was refused: the code says why in the screen's words; the detail is for support.
        throw new AppError(e.code, e.message, {
          reason: e.detail,
          ...(e.missing.length > 0
            ? { fields: Object.fromEntries(e.missing.map((c) => [c, 'import_missing_column'])) }
            : {}),
        })
      }
    },
  }
}
