/** prev_hash of the first audit row. A leaf module: migrations and the audit code both need it. */
export const GENESIS_HASH = '0'.repeat(64)
