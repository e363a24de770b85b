/** Start-up recovery is shared by every record kind: src/main/journal/recovery.ts. */
export * from '../journal/recovery'
