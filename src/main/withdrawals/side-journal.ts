/** The side journal is shared by every record kind: src/main/journal/side-journal.ts. */
export * from '../journal/side-journal'
