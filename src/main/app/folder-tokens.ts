/**
 * Folders reach main's file code only through main's own dialog. The dialog's answer stays in main; the renderer
 * gets a one-use token naming it, good for one purpose, for the profile active when it was chosen, for a few
 * minutes. So a compromised renderer can neither name a path nor replay an old choice.
 */
import { randomBytes } from 'node:crypto'
import { AppError } from './errors'

export type FolderPurpose = 'export' | 'review'

/** Long enough to read the dialog's answer and press the button; short enough not to linger. */
export const FOLDER_TOKEN_TTL_MS = 10 * 60_000
/** Choices nobody used: the oldest go first beyond this many. */
const MAX_OPEN = 16

interface Grant {
  folder: string
  purpose: FolderPurpose
  profileId: string
  expiresAt: number
}

export interface FolderTokens {
  issue(folder: string, purpose: FolderPurpose, profileId: string): string
  /** The folder, once: the token is gone afterwards, whatever the outcome. */
  take(token: string, purpose: FolderPurpose, profileId: string): string
}

const invalid = (): AppError =>
  new AppError(
    'folder_token_invalid',
    'This folder choice is not valid any more (already used, expired or unknown). Choose the folder again.',
  )

export function createFolderTokens(now: () => number = Date.now): FolderTokens {
  const grants = new Map<string, Grant>()
  return {
    issue(folder, purpose, profileId) {
      for (const [k, g] of grants) if (g.expiresAt <= now()) grants.delete(k)
      while (grants.size >= MAX_OPEN) grants.delete(grants.keys().next().value as string)
      // 32 random bytes, base64url: the shape folderTokenSchema (shared/contract) accepts.
      const token = randomBytes(32).toString('base64url')
      grants.set(token, { folder, purpose, profileId, expiresAt: now() + FOLDER_TOKEN_TTL_MS })
      return token
    },
    take(token, purpose, profileId) {
      const g = grants.get(token)
      grants.delete(token)
      if (g === undefined || g.expiresAt <= now() || g.purpose !== purpose) throw invalid()
      if (g.profileId !== profileId) {
        throw new AppError(
          'folder_token_other_profile',
          'This folder was chosen under another profile. Choose the folder again.',
        )
      }
      return g.folder
    },
  }
}
