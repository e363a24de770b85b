/** Which engine a store runs on: this computer's SQLite ledger or the team's PostgreSQL one. */
export type StoreEngine = 'sqlite' | 'postgres'
