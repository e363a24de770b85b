import { z } from 'zod'

/**
 * A one-use token for a folder main's own dialog handed out (32 random bytes, base64url); never a path. Its own
 * module so that the channel files contract.ts spreads in can use it without importing contract.ts.
 */
export const folderTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/)
