/** What a read needs of node-postgres: a pool, a client or a transaction's client all answer it. */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>
}
